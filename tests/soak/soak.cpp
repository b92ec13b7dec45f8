// soak: a long run of a shaken box of spheres with joints, stepped by
// rollfric's cone solver, checking that nothing degrades:
// no NaN, no growth of memory, energy bounded, no sphere
// leaves the box, the cone solver takes every step.
//
//   soak [--steps N] [--spheres N] [--check-every K] [--out FILE.json]
//        [--solver apgd|jacobi|gs|gs_colored] [--iterations M] [--tol T]
//        [--threads T] [--pool P] [--rss-tolerance F] [--dt H]
//        [--mode cone|stock] [--quiet]
//
// Defaults: 100,000 steps of 1,000 spheres (scripts/soak.sh), checks every
// step, APGD, at most 30 iterations per step to a tolerance of 1e-4,
// OpenMP's default thread count, Bullet's pools sized (--pool), RSS tolerance
// 0.05, h = 1/60 s, the cone solver.  The ctest test soak_short runs 200
// spheres for 3,000 steps.  Exit status 0 when every check passed, 1 on a
// violation (each printed with "soak: FAIL"), 2 on a usage error.  The
// summary is printed and, with --out, written as JSON.
//
// --mode stock steps the same world with Bullet's own solver (rollfric
// attached, in RF_BULLET_STOCK mode), for comparison: the same checks
// less those about the cone solver.  Memory that grows in both modes is
// Bullet's (or the allocator's), not rollfric's.
//
// --pool P sizes Bullet's persistent-manifold and collision-algorithm
// pools (btDefaultCollisionConstructionInfo::
// m_defaultMaxPersistentManifoldPoolSize and
// m_defaultMaxCollisionAlgorithmPoolSize; Bullet's default is 4096 each).
// That is ordinary application-side configuration of Bullet, and the soak
// does it: by default P = 32 per sphere (32,000 for 1,000 spheres).
// Bullet makes one manifold and one collision algorithm per overlapping
// broadphase pair, touching or not: 21,000 to 24,000 in this pile of
// 1,000 spheres.  Beyond the pool, btCollisionDispatcher::getNewManifold
// (and the algorithm allocation) fall back to btAlignedAlloc for each
// one, so the heap follows the number of pairs, which creeps up as the
// shaken pile compacts, and fragments as pairs come and go: measured with
// --mode stock (no rollfric in the step) and Bullet's pools (--pool 0),
// RSS grows 7% from step 1,000 to 10,000 (heap in use +1.8 MiB with the
// manifold count, +2.5 MiB held); with the pools sized it is flat to
// the byte.  --pool 0 runs with Bullet's default pools.

// Memory is reported three ways at 10% of the run, half-way through the
// rest and at the end: the
// resident set (checked), and glibc's heap over all arenas (mallinfo2):
// bytes in live allocations ("in use") and bytes the allocator holds
// ("held"); in use growing means something keeps more memory, held
// growing with in use flat means fragmentation.

// Scene (y up, SI units):
//   box     inner 2.4 m x H x 2.4 m (H = 3 m up to 1,300 spheres, taller
//           beyond), closed (floor, four walls, lid), walls 0.5 m thick:
//           six kinematic btBoxShape bodies (friction 1.0) moved together
//           by their motion states.  The box origin (centre of the floor's
//           top face) follows
//               x(t) = Ax sin(2 pi fx t),  y(t) = Ay sin(2 pi fy t),  z = 0
//           Ax = 0.04 m at fx = 2 Hz, Ay = 0.02 m at fy = 4 Hz: peak box
//           speed sqrt((Ax wx)^2 + (Ay wy)^2) = 0.71 m/s, peak vertical
//           acceleration Ay wy^2 = 12.6 m/s^2 = 1.29 g, so the upper
//           layers leave the floor's support every cycle and the pile is
//           kept moving (it never settles, nothing sleeps).
//   spheres N of radius R = 0.1 m, 1 kg, friction 0.5, rolling and
//           spinning friction 0.01 m; Bullet's combine rules give mu = 0.25
//           between spheres and 0.5 against the box, rho = sigma = 0.01 m
//           at every contact (the cone's rolling and spinning parts are
//           live; the run checks that rolling impulses occur).
//           Restitution 0; deactivation disabled.  Built in rows of 10
//           along x, 0.22 m apart (10 x 10 per layer, layers 0.22 m apart,
//           a little random jitter), so they fall a few mm and settle.
//   joints  rows of 10 spheres are linked (repeating pattern of 25 rows):
//           5 rows of two chains of 5 spheres each joined by
//           btPoint2PointConstraint (pivots at the touching points, 20% of
//           the spheres), 1 row of 5 pairs joined by btHingeConstraint
//           (axis z, limits +-1 rad; 4%), 1 row of 5 pairs joined by
//           btGeneric6DofSpring2Constraint (x free within +-3 cm on a
//           spring of 500 N/m, damping 0.5, y and z locked, rotations
//           within +-0.5 rad; 4%).  Linked spheres do not collide.
//           For 1,000 spheres: 160 point2point, 20 hinges, 20 6-dof.
//
// Checks (every --check-every steps; the run stops at the first failing
// check and reports it):
//   finite     every body's position, orientation, linear and angular
//              velocity are finite; every step's residual is finite; the
//              number of non-finite values is reported (nan_count).
//   inside     every sphere centre stays inside the box's inner volume
//              less one radius, with a slack of R/2 for penetration
//              (deeper than half a radius is a failure in itself).
//   cone       every step was solved by the cone solver: rf_bullet_stats
//              reports rows > 0 (the joints alone give rows; the shim
//              zeroes the stats when it hands a step it cannot take to
//              Bullet's solver, with a message), and left nothing out
//              (skipped_bodies, skipped_contacts, skipped_rows all 0: no
//              invalid data reached it); rolling impulses occur (sampled
//              at 10% and at the end with rf_bullet_point_impulse).  Steps
//              whose impulses the core scaled down to pass its energy
//              check (energy_scale < 1) are counted, not failed.
//   rss        resident set size (/proc/self/statm; ASan's live heap
//              under ASan) must not grow in both halves of the steps
//              after the first 10%: the smaller of (middle / 10%) and
//              (end / middle) within half of --rss-tolerance (5%).  A
//              leak grows memory every step, so in both halves (a linear
//              leak of 5% over the span fails as the old end / 10% check
//              did); a buffer that grows once to follow the scene grows in
//              one.  The shaken pile compacts all run long (soak_short:
//              481 contacts by step 300, 599 by step 2,896), and the
//              core's arrays double when the contact count passes their
//              capacity (+0.5 MiB at 521 contacts, after step 300): end /
//              10% alone called that a leak.  The arrays this program
//              records its statistics in are allocated and touched before
//              step 1, so they do not count.
//   energy     E = sum over spheres of 1/2 m v^2 + 1/2 w.I w
//              + m g (y - y_ref), y_ref = the lowest a sphere centre can
//              be (floor top at its lowest, -Ay, plus R), checked against
//              two limits derived below; and E must not drift upwards
//              (growth, below).
//   joints     largest point2point pivot separation (reported; must stay
//              below R: a chain whose links are a radius apart is broken).
//
// Energy limits.  The drive is the only source of energy: in the frame
// moving with the box the walls are at rest, and every impulse of an
// exact solution of the associated cone complementarity problem does no
// positive work: with u+ = D^T v+ the post-step contact velocities,
// <gamma, u+> = 0, so a step changes the kinetic energy by
// 1/2 (v+ + v-)^T M (v+ - v-) = gamma^T u+ - 1/2 gamma^T N gamma <= 0
// (restitution 0, no motors; joint rows alike).  Energy enters through
// the box's motion (the walls' velocity in the contact rows) and through
// Baumgarte's penetration and joint-drift recovery (at most
// RF_BULLET_DEFAULT_MAX_RECOVERY = 3 m/s per point).
//   bound      (total, the sharp one) E(t) <= E(0) + N m [1.3 (2 Vmax)^2
//              + g 2 Ay] + n6dof 1/2 k xlim^2.
//              Potential: the spheres start at rest stacked 0.22 m apart,
//              higher than any packing they settle into, so E(0) holds
//              the most potential energy the pile can have but for the
//              box's own rise, at most 2 Ay above its lowest point, and
//              the hop a floor moving at <= Vmax can give a sphere,
//              Vmax^2 / (2 g) = 2.6 cm (counted in the kinetic term).
//              Kinetic: a wall moving at <= Vmax with restitution 0 gives
//              what it pushes a normal speed of at most Vmax; 2 Vmax
//              allows for a sphere thrown by another that the wall pushes.
//              Friction only brings surface speeds together, so
//              R |w| <= 2 v and 1/2 m v^2 + 1/2 (2/5 m R^2) w^2 <= 1.3 m v^2.
//              The allowance is the whole pile moving at 2 Vmax at once;
//              single spheres do go faster for a moment (up to 3.5 m/s in
//              the first second's collapse of the initial grid, 2 m/s
//              while shaking: chains whip, recovery pushes), which the
//              total absorbs and the ceiling below bounds.  The 6-dof
//              springs hold at most 1/2 k xlim^2 each, which E does not
//              count.  For 1,000 spheres: E(0) = 9.96 kJ, margin 3.0 kJ,
//              bound 12.98 kJ, against ~4.8-5.2 kJ while shaking: heating
//              of the pile by the solver (recovery, a bad impulse) past
//              the drive's own energy shows up here.
//   ceiling    (per sphere, a priori, loose) e_i <= m [g (H - 2R + 2 Ay)
//              + 1.3 (sqrt(2 (g + amax) D) + Vmax)^2]: the most potential
//              energy the box allows, plus a sphere falling from rest
//              across the box's diagonal D under the strongest effective
//              gravity of the box frame, g + amax, then moving with the
//              box (+ Vmax), with rotation as above.  337 J for the 3 m
//              box: a speed of ~16 m/s; anything above is an explosion,
//              whatever the rest of the pile does.
//   growth     mean E over the last 10% of the steps <= 1.05 x mean E over
//              steps (10%, 20%]: a shaken pile compacts, so its energy
//              may fall but must not climb.  Each window averages over
//              hundreds of shaking periods, which smooths the +-4% swing
//              of E within a period (1,000 spheres over 10,000 steps:
//              5062 J, then 4854 J).
#include <rollfric/rollfric_bullet.h>

#include "../../bench/bullet_world.hpp"

#include <btBulletDynamicsCommon.h>

#include <malloc.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
// The sanitizer runtime's allocator statistics (sanitizer/
// allocator_interface.h, which Debian ships with clang but not with gcc).
extern "C" size_t __sanitizer_get_current_allocated_bytes(void);
extern "C" size_t __sanitizer_get_heap_size(void);
#define SOAK_ASAN 1
#else
#define SOAK_ASAN 0
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

// --- scene constants (see the header comment) -------------------------------
const double kG = 9.81;
const double kR = 0.1;              // sphere radius, m
const double kMass = 1.0;           // sphere mass, kg
const double kPitch = 0.22;         // grid spacing, m
const double kHalfW = 1.2;          // inner half width of the box (x and z), m
const double kWallT = 0.25;         // wall half thickness, m
const double kAx = 0.04, kFx = 2.0; // horizontal shake: amplitude m, Hz
const double kAy = 0.02, kFy = 4.0; // vertical shake
const double kSpringK = 500.0, kSpringC = 0.5, kSpringLim = 0.03;
const int kRow = 10;          // spheres per row (along x)
const int kBulletPool = 4096; // Bullet's default pool sizes

double now()
{
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch())
        .count();
}

// Resident set size, bytes (/proc/self/statm, second field), or -1.
[[maybe_unused]] long rss_bytes()
{
    long pages_total = 0, pages_res = 0;
    FILE *f = std::fopen("/proc/self/statm", "r");
    if (f == nullptr) {
        return -1;
    }
    int n = std::fscanf(f, "%ld %ld", &pages_total, &pages_res);
    std::fclose(f);
    if (n != 2) {
        return -1;
    }
    return pages_res * sysconf(_SC_PAGESIZE);
}

// Memory of the process: resident set (/proc/self/statm) and glibc's
// heap, all arenas (mallinfo2): bytes in use by live allocations and
// bytes the allocator holds (sbrk arenas + mmapped blocks).  In use
// growing = something keeps more live memory; held growing with in use
// flat = fragmentation.
struct Mem {
    long rss = -1, heap_used = -1, heap_total = -1;
};

//
// Under AddressSanitizer the resident set says nothing about leaks: freed
// blocks sit in ASan's quarantine (256 MiB by default) and shadow memory
// grows with every address touched, so RSS climbs for the first few
// hundred MiB of churn whatever the program keeps (the CI run saw 160 ->
// 356 MiB with nothing growing).  There the "rss" figure checked is ASan's
// own count of bytes in live allocations, and "heap held" its heap size;
// mallinfo2 sees nothing (ASan replaces malloc).
Mem mem_now()
{
    Mem m;
#if SOAK_ASAN
    m.rss = (long)__sanitizer_get_current_allocated_bytes();
    m.heap_used = m.rss;
    m.heap_total = (long)__sanitizer_get_heap_size();
#else
    m.rss = rss_bytes();
    const struct mallinfo2 mi = mallinfo2();
    m.heap_used = (long)(mi.uordblks + mi.hblkhd);
    m.heap_total = (long)(mi.arena + mi.hblkhd);
#endif
    return m;
}

double load_average()
{
    double l = -1;
    if (FILE *f = std::fopen("/proc/loadavg", "r")) {
        if (std::fscanf(f, "%lf", &l) != 1) {
            l = -1;
        }
        std::fclose(f);
    }
    return l;
}

// Deterministic jitter (splitmix64 -> [-1, 1)).
struct Rng {
    unsigned long long s;
    double next()
    {
        unsigned long long z = (s += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        return (double)(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
    }
};

// The box's motion: origin (centre of the floor's top face) at time t.
btVector3 box_origin(double t)
{
    return btVector3((btScalar)(kAx * std::sin(2 * M_PI * kFx * t)),
                     (btScalar)(kAy * std::sin(2 * M_PI * kFy * t)), 0);
}

// A kinematic body's pose, set by the program before each step; Bullet
// reads it in saveKinematicState and derives the body's velocity from the
// change since the last step.
struct KinematicState : btMotionState {
    btTransform xf;
    btVector3 offset; // of this wall from the box origin
    void getWorldTransform(btTransform &out) const override
    {
        out = xf;
    }
    void setWorldTransform(const btTransform &) override
    {
    }
};

struct Options {
    long steps = 100000;
    int spheres = 1000;
    long check_every = 1;
    std::string out;
    rf_solver_kind solver = RF_SOLVER_APGD;
    const char *solver_name = "apgd";
    int iterations = 30;
    double tol = 1e-4;
    int threads = 0;
    int pool = -1; // -1: sized for the scene (32 per sphere); 0: Bullet's
    double rss_tolerance = 0.05;
    double dt = 1.0 / 60;
    bool quiet = false;
    bool stock = false; // --mode stock: Bullet's solver steps the world
};

void usage(FILE *f)
{
    std::fprintf(
        f, "usage: soak [--steps N] [--spheres N] [--check-every K] "
           "[--out FILE.json]\n"
           "            [--solver apgd|jacobi|gs|gs_colored] [--iterations M] "
           "[--tol T]\n"
           "            [--threads T] [--pool P] [--rss-tolerance F] [--dt H] "
           "[--mode cone|stock] [--quiet]\n");
}

bool parse_long(const char *s, long lo, long hi, long *out)
{
    char *end = nullptr;
    long v = std::strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < lo || v > hi) {
        return false;
    }
    *out = v;
    return true;
}

bool parse_double(const char *s, double lo, double hi, double *out)
{
    char *end = nullptr;
    double v = std::strtod(s, &end);
    if (end == s || *end != '\0' || !(v >= lo && v <= hi)) {
        return false;
    }
    *out = v;
    return true;
}

// 0 = ok, 1 = --help, 2 = error (printed).
int parse(int argc, char **argv, Options *o)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            return 1;
        }
        if (a == "--quiet") {
            o->quiet = true;
            continue;
        }
        if (i + 1 >= argc) {
            std::fprintf(stderr, "soak: %s needs a value\n", a.c_str());
            return 2;
        }
        const char *v = argv[++i];
        long l = 0;
        bool ok = true;
        if (a == "--steps") {
            ok = parse_long(v, 10, 100000000L, &l);
            o->steps = l;
        } else if (a == "--spheres") {
            ok = parse_long(v, 10, 100000, &l);
            o->spheres = (int)l;
        } else if (a == "--check-every") {
            ok = parse_long(v, 1, 100000000L, &l);
            o->check_every = l;
        } else if (a == "--out") {
            o->out = v;
        } else if (a == "--solver") {
            static const struct {
                const char *name;
                rf_solver_kind kind;
            } kinds[] = {{"apgd", RF_SOLVER_APGD},
                         {"jacobi", RF_SOLVER_JACOBI},
                         {"gs", RF_SOLVER_GS},
                         {"gs_colored", RF_SOLVER_GS_COLORED}};
            ok = false;
            for (const auto &k : kinds) {
                if (std::strcmp(v, k.name) == 0) {
                    o->solver = k.kind;
                    o->solver_name = k.name;
                    ok = true;
                }
            }
        } else if (a == "--mode") {
            ok = std::strcmp(v, "cone") == 0 || std::strcmp(v, "stock") == 0;
            o->stock = std::strcmp(v, "stock") == 0;
        } else if (a == "--iterations") {
            ok = parse_long(v, 1, 1000000, &l);
            o->iterations = (int)l;
        } else if (a == "--tol") {
            ok = parse_double(v, 0.0, 1.0, &o->tol);
        } else if (a == "--threads") {
            ok = parse_long(v, 0, 1024, &l);
            o->threads = (int)l;
        } else if (a == "--pool") {
            ok = parse_long(v, 0, 100000000L, &l);
            o->pool = (int)l == 0 ? kBulletPool : (int)l;
        } else if (a == "--rss-tolerance") {
            ok = parse_double(v, 0.0, 10.0, &o->rss_tolerance);
        } else if (a == "--dt") {
            ok = parse_double(v, 1e-4, 0.1, &o->dt);
        } else {
            std::fprintf(stderr, "soak: unknown option %s\n", a.c_str());
            return 2;
        }
        if (!ok) {
            std::fprintf(stderr, "soak: bad value for %s: %s\n", a.c_str(), v);
            return 2;
        }
    }
    return 0;
}

struct Summary {
    double min = 0, median = 0, max = 0;
};

template <class T> Summary summarize(std::vector<T> v)
{
    Summary s;
    if (v.empty()) {
        return s;
    }
    std::sort(v.begin(), v.end());
    s.min = (double)v.front();
    s.max = (double)v.back();
    size_t n = v.size();
    s.median = n % 2 ? (double)v[n / 2]
                     : 0.5 * ((double)v[n / 2 - 1] + (double)v[n / 2]);
    return s;
}

bool finite3(const btVector3 &v)
{
    return std::isfinite((double)v.x()) && std::isfinite((double)v.y()) &&
           std::isfinite((double)v.z());
}

int nonfinite_count(const btRigidBody *b)
{
    const btTransform &xf = b->getCenterOfMassTransform();
    const btQuaternion q = xf.getRotation();
    const btVector3 *vs[3] = {&xf.getOrigin(), &b->getLinearVelocity(),
                              &b->getAngularVelocity()};
    int bad = 0;
    for (const btVector3 *v : vs) {
        for (int k = 0; k < 3; ++k) {
            bad += !std::isfinite((double)(*v)[k]);
        }
    }
    for (int k = 0; k < 4; ++k) {
        bad += !std::isfinite((double)q[k]);
    }
    // the basis too: Bullet integrates the matrix, not the quaternion
    for (int r = 0; r < 3; ++r) {
        bad += !finite3(xf.getBasis()[r]) ? 1 : 0;
    }
    return bad;
}

// Bullet's collision configuration with both pools (persistent manifolds,
// collision algorithms) of `pool` entries (--pool, header comment).
btDefaultCollisionConstructionInfo pools(int pool)
{
    btDefaultCollisionConstructionInfo ci;
    ci.m_defaultMaxPersistentManifoldPoolSize = pool;
    ci.m_defaultMaxCollisionAlgorithmPoolSize = pool;
    return ci;
}

} // namespace

int main(int argc, char **argv)
{
    Options opt;
    switch (parse(argc, argv, &opt)) {
    case 0: break;
    case 1: usage(stdout); return 0;
    default: usage(stderr); return 2;
    }
    // Everything this program records per step is allocated and touched
    // here, before the world exists, so the RSS comparison sees only what
    // Bullet and rollfric allocate while stepping.
    const long n_checks = opt.steps / opt.check_every + 1;
    std::vector<float> residuals((size_t)opt.steps, 0.0f);
    std::vector<int> iterations((size_t)opt.steps, 0);
    std::vector<int> contacts((size_t)opt.steps, 0);
    std::vector<double> energy_at((size_t)n_checks, 0.0);
    const int n_rss_samples = 21; // at 0%, 5%, ..., 100% of the steps
    std::vector<long> rss_samples((size_t)n_rss_samples, 0);
    std::vector<float> step_ms((size_t)opt.steps, 0.0f);

    const int N = opt.spheres;
    const int per_layer = kRow * kRow;
    const int layers = (N + per_layer - 1) / per_layer;
    // inner height: 3 m, or what the initial grid needs plus 0.8 m
    const double H = std::max(3.0, kPitch * layers + 0.8);
    const double Vmax = std::hypot(kAx * 2 * M_PI * kFx, kAy * 2 * M_PI * kFy);
    const double amax = std::hypot(kAx * std::pow(2 * M_PI * kFx, 2),
                                   kAy * std::pow(2 * M_PI * kFy, 2));
    const double y_ref = -kAy + kR; // lowest possible sphere centre

    const bool pool_auto = opt.pool < 0;
    if (pool_auto) {
        opt.pool = std::max(kBulletPool, 32 * N);
    }
    // the world (bench/bullet_world.hpp), Bullet's stock solver in it
    rfbullet::World<> W(kG, pools(opt.pool));
    btDiscreteDynamicsWorld *world = &W.world;

    // --- the box: six kinematic walls --------------------------------------
    std::vector<btRigidBody *> walls;
    std::vector<KinematicState *> wall_states;
    {
        const double w = kHalfW + 2 * kWallT; // walls overlap at the edges
        struct {
            btVector3 centre, half;
        } parts[6] = {
            {{0, (btScalar)-kWallT, 0},
             {(btScalar)w, (btScalar)kWallT, (btScalar)w}},
            {{0, (btScalar)(H + kWallT), 0},
             {(btScalar)w, (btScalar)kWallT, (btScalar)w}},
            {{(btScalar)(kHalfW + kWallT), (btScalar)(H / 2), 0},
             {(btScalar)kWallT, (btScalar)(H / 2 + 2 * kWallT), (btScalar)w}},
            {{(btScalar) - (kHalfW + kWallT), (btScalar)(H / 2), 0},
             {(btScalar)kWallT, (btScalar)(H / 2 + 2 * kWallT), (btScalar)w}},
            {{0, (btScalar)(H / 2), (btScalar)(kHalfW + kWallT)},
             {(btScalar)w, (btScalar)(H / 2 + 2 * kWallT), (btScalar)kWallT}},
            {{0, (btScalar)(H / 2), (btScalar) - (kHalfW + kWallT)},
             {(btScalar)w, (btScalar)(H / 2 + 2 * kWallT), (btScalar)kWallT}},
        };
        for (const auto &p : parts) {
            btCollisionShape *shape = W.own(new btBoxShape(p.half));
            auto *ms = new KinematicState;
            ms->offset = p.centre;
            ms->xf.setIdentity();
            ms->xf.setOrigin(box_origin(0) + p.centre);
            W.states.emplace_back(ms);
            btRigidBody::btRigidBodyConstructionInfo ci(0, ms, shape,
                                                        btVector3(0, 0, 0));
            ci.m_friction = 1.0;
            W.bodies.emplace_back(new btRigidBody(ci));
            btRigidBody *b = W.bodies.back().get();
            b->setCollisionFlags(b->getCollisionFlags() |
                                 btCollisionObject::CF_KINEMATIC_OBJECT);
            b->setActivationState(DISABLE_DEACTIVATION);
            world->addRigidBody(b);
            walls.push_back(b);
            wall_states.push_back(ms);
        }
    }

    // --- the spheres, in rows of 10 along x ---------------------------------
    btCollisionShape *sphere_shape = W.own(new btSphereShape((btScalar)kR));
    btVector3 inertia;
    sphere_shape->calculateLocalInertia((btScalar)kMass, inertia);
    std::vector<btRigidBody *> spheres;
    Rng rng{12345};
    for (int i = 0; i < N; ++i) {
        const int layer = i / per_layer, in_layer = i % per_layer;
        const int zi = in_layer / kRow, xi = in_layer % kRow;
        const double jitter = 0.004; // m, breaks the grid's symmetry
        btVector3 pos(
            (btScalar)((xi - (kRow - 1) / 2.0) * kPitch + jitter * rng.next()),
            (btScalar)(kR + 0.005 + layer * kPitch),
            (btScalar)((zi - (kRow - 1) / 2.0) * kPitch + jitter * rng.next()));
        btTransform xf;
        xf.setIdentity();
        xf.setOrigin(box_origin(0) + pos);
        W.states.emplace_back(new btDefaultMotionState(xf));
        btRigidBody::btRigidBodyConstructionInfo ci(
            (btScalar)kMass, W.states.back().get(), sphere_shape, inertia);
        ci.m_friction = 0.5;
        ci.m_rollingFriction = 0.01;
        ci.m_spinningFriction = 0.01;
        W.bodies.emplace_back(new btRigidBody(ci));
        btRigidBody *b = W.bodies.back().get();
        b->setActivationState(DISABLE_DEACTIVATION);
        world->addRigidBody(b);
        spheres.push_back(b);
    }

    // --- joints: by row (i / 10), repeating pattern of 25 rows --------------
    std::vector<btPoint2PointConstraint *> p2p;
    int n_hinge = 0, n_6dof = 0;
    const btVector3 right((btScalar)(kPitch / 2), 0, 0), left = -right;
    for (int row = 0; row * kRow < N; ++row) {
        const int first = row * kRow;
        const int count = std::min(kRow, N - first);
        const int kind = row % 25;
        // linked spheres do not collide (World::add_joint)
        auto add = [&](btTypedConstraint *j) { W.add_joint(j); };
        if (kind < 5) { // two chains of 5
            for (int k = 0; k + 1 < count; ++k) {
                if (k % 5 == 4) {
                    continue; // between the two chains
                }
                auto *j = new btPoint2PointConstraint(
                    *spheres[first + k], *spheres[first + k + 1], right, left);
                add(j);
                p2p.push_back(j);
            }
        } else if (kind == 5) { // hinge pairs
            for (int k = 0; k + 1 < count; k += 2) {
                auto *j = new btHingeConstraint(
                    *spheres[first + k], *spheres[first + k + 1], right, left,
                    btVector3(0, 0, 1), btVector3(0, 0, 1));
                j->setLimit(-1.0f, 1.0f);
                add(j);
                ++n_hinge;
            }
        } else if (kind == 6) { // 6-dof spring pairs
            for (int k = 0; k + 1 < count; k += 2) {
                btTransform fa, fb;
                fa.setIdentity();
                fa.setOrigin(right);
                fb.setIdentity();
                fb.setOrigin(left);
                auto *j = new btGeneric6DofSpring2Constraint(
                    *spheres[first + k], *spheres[first + k + 1], fa, fb);
                j->setLinearLowerLimit(btVector3((btScalar)-kSpringLim, 0, 0));
                j->setLinearUpperLimit(btVector3((btScalar)kSpringLim, 0, 0));
                j->setAngularLowerLimit(btVector3(-0.5f, -0.5f, -0.5f));
                j->setAngularUpperLimit(btVector3(0.5f, 0.5f, 0.5f));
                j->enableSpring(0, true);
                j->setStiffness(0, (btScalar)kSpringK);
                j->setDamping(0, (btScalar)kSpringC);
                j->setEquilibriumPoint(0, 0);
                add(j);
                ++n_6dof;
            }
        }
    }

    // --- rollfric
    // --------------------------------------------------------------
    rf_config cfg;
    rf_config_default(&cfg);
    cfg.solver = opt.solver;
    cfg.max_iter = opt.iterations;
    cfg.tol = opt.tol;
    cfg.threads = opt.threads;
    rf_error err{};
    rf_plugin *rf = rf_bullet_attach(world, &cfg, &err);
    if (rf == nullptr) {
        std::fprintf(stderr, "soak: FAIL rf_bullet_attach: %s\n", err.message);
        return 1;
    }
    if (opt.stock) {
        rf_bullet_set_mode(rf, RF_BULLET_STOCK);
    }

    // --- limits (header comment) ---------------------------------------------
    const double Dbox = std::sqrt(4 * kHalfW * kHalfW * 2 + H * H);
    const double v_ceiling = std::sqrt(2 * (kG + amax) * Dbox) + Vmax;
    const double e_ceiling =
        kMass * (kG * (H - 2 * kR + 2 * kAy) + 1.3 * v_ceiling * v_ceiling);
    const double spring_energy =
        n_6dof * 0.5 * kSpringK * kSpringLim * kSpringLim;
    const double inside_slack = kR / 2;
    const double growth_limit = 1.05;

    // The state's energy E; also the largest single-sphere energy and
    // speed (and which sphere), how far the worst sphere is outside the
    // allowed region (<= 0: inside) and the number of non-finite values.
    struct Measure {
        double e = 0, e_sphere = 0, v = 0, outside = -1e30;
        int v_index = -1, bad = 0;
    };
    auto measure = [&](double t) {
        Measure r;
        const btVector3 o = box_origin(t);
        for (size_t i = 0; i < spheres.size(); ++i) {
            const btRigidBody *b = spheres[i];
            r.bad += nonfinite_count(b);
            const btVector3 &v = b->getLinearVelocity();
            const btVector3 &w = b->getAngularVelocity();
            const btVector3 &il = b->getInvInertiaDiagLocal();
            // spheres: I is isotropic, so w.I w needs no rotation
            const double ke_rot = 0.5 * ((double)w.x() * w.x() / il.x() +
                                         (double)w.y() * w.y() / il.y() +
                                         (double)w.z() * w.z() / il.z());
            const btVector3 p = b->getCenterOfMassPosition();
            const double ei = 0.5 * kMass * (double)v.length2() + ke_rot +
                              kMass * kG * ((double)p.y() - y_ref);
            r.e += ei;
            r.e_sphere = std::max(r.e_sphere, ei);
            if ((double)v.length() > r.v) {
                r.v = v.length();
                r.v_index = (int)i;
            }
            const btVector3 q = p - o; // in the box frame
            r.outside =
                std::max(r.outside, std::fabs((double)q.x()) - (kHalfW - kR));
            r.outside =
                std::max(r.outside, std::fabs((double)q.z()) - (kHalfW - kR));
            r.outside = std::max(r.outside, kR - (double)q.y());
            r.outside = std::max(r.outside, (double)q.y() - (H - kR));
        }
        for (btRigidBody *b : walls) {
            r.bad += nonfinite_count(b);
        }
        return r;
    };
    auto p2p_error = [&]() {
        double worst = 0.0;
        for (btPoint2PointConstraint *j : p2p) {
            btVector3 pa = j->getRigidBodyA().getCenterOfMassTransform() *
                           j->getPivotInA();
            btVector3 pb = j->getRigidBodyB().getCenterOfMassTransform() *
                           j->getPivotInB();
            worst = std::max(worst, (double)(pa - pb).length());
        }
        return worst;
    };
    // Rolling activity: of the last cone step's contact points, how many
    // carry a rolling impulse, and how many of those are on the rolling
    // cone's boundary (|tau_r| >= 0.99 rho gn: rolling, not stuck).
    long roll_points = 0, roll_with = 0, roll_boundary = 0;
    auto rolling_activity = [&]() {
        btDispatcher *d = world->getDispatcher();
        for (int m = 0; m < d->getNumManifolds(); ++m) {
            btPersistentManifold *pm = d->getManifoldByIndexInternal(m);
            for (int k = 0; k < pm->getNumContacts(); ++k) {
                const btManifoldPoint &cp = pm->getContactPoint(k);
                double g[6];
                if (rf_bullet_point_impulse(rf, &cp, g) != RF_OK) {
                    continue;
                }
                ++roll_points;
                const double roll = std::hypot(g[4], g[5]);
                if (roll > 1e-9) {
                    ++roll_with;
                    if (roll >= 0.99 * cp.m_combinedRollingFriction * g[0]) {
                        ++roll_boundary;
                    }
                }
            }
        }
    };
    btDispatcher *dispatcher = world->getDispatcher();
    btOverlappingPairCache *pairs =
        world->getBroadphase()->getOverlappingPairCache();

    const double t_start = now();
    const double e0 = measure(0.0).e;
    const double e_bound =
        e0 + N * kMass * (1.3 * 4 * Vmax * Vmax + kG * 2 * kAy) + spring_energy;

    const long step_10 = std::max(1L, opt.steps / 10);
    // the middle of the checked span (10%, 100%]: memory is checked over
    // its two halves (rss, above)
    const long step_mid = step_10 + (opt.steps - step_10) / 2;
    const long step_20 = std::max(2L, opt.steps / 5);
    const long step_90 = opt.steps - opt.steps / 10;
    Mem mem_10, mem_mid, mem_end;
    double e_max = e0, e_sphere_max = 0.0, v_max_seen = 0.0, v_max_steady = 0.0;
    long v_max_step = 0;
    int v_max_sphere = -1;
    double worst_out = -1e30, worst_joint = 0.0;
    long n_energy = 0, nan_count = 0, fallback_steps = 0, bad_residuals = 0;
    long skipped_steps = 0, scaled_steps = 0;
    int manifolds_max = 0, pairs_max = 0, manifolds_10 = 0, manifolds_end = 0;
    double e_sum_w1 = 0, e_sum_w2 = 0;
    long e_n_w1 = 0, e_n_w2 = 0;
    std::vector<std::string> failures;
    auto fail = [&](const std::string &what) {
        std::fprintf(stderr, "soak: FAIL %s\n", what.c_str());
        failures.push_back(what);
    };
    char buf[512];
    const long rss_every = std::max(1L, opt.steps / (n_rss_samples - 1));
    rss_samples[0] = mem_now().rss;
    const long progress_every = std::max(1L, opt.steps / 20);
    if (!opt.quiet) {
        std::printf("soak: %d spheres (%zu point2point, %d hinges, %d "
                    "6-dof), box 2.4 x %.2f x 2.4 m shaken at %.2f m/s, "
                    "%.1f m/s^2 peak; %ld steps of %.5f s; %s solver%s%s, "
                    "%d iterations, tol %g, threads %d, pool %s; E(0) %.1f "
                    "J, bound %.1f J, per-sphere ceiling %.1f J\n",
                    N, p2p.size(), n_hinge, n_6dof, H, Vmax, amax, opt.steps,
                    opt.dt, opt.stock ? "stock" : "cone", opt.stock ? "" : " ",
                    opt.stock ? "" : opt.solver_name, opt.iterations, opt.tol,
                    opt.threads,
                    (std::to_string(opt.pool) + (pool_auto ? " (32 per sphere)"
                                                 : opt.pool == kBulletPool
                                                     ? " (Bullet's)"
                                                     : ""))
                        .c_str(),
                    e0, e_bound, e_ceiling);
        std::fflush(stdout);
    }

    long step = 0;
    for (step = 1; step <= opt.steps; ++step) {
        const double t = step * opt.dt;
        const btVector3 o = box_origin(t);
        for (KinematicState *ms : wall_states) {
            ms->xf.setOrigin(o + ms->offset);
        }
        const double ts = now();
        W.step(opt.dt);
        step_ms[(size_t)step - 1] = (float)(1e3 * (now() - ts));
        manifolds_max = std::max(manifolds_max, dispatcher->getNumManifolds());
        pairs_max = std::max(pairs_max, pairs->getNumOverlappingPairs());

        rf_stats st{};
        rf_bullet_stats(rf, &st);
        residuals[(size_t)step - 1] = (float)st.residual;
        iterations[(size_t)step - 1] = st.iterations;
        contacts[(size_t)step - 1] = st.contacts;
        if (!opt.stock) {
            if (st.rows == 0) {
                ++fallback_steps; // the step went to Bullet's own solver
            }
            if (!std::isfinite(st.residual)) {
                ++bad_residuals;
            }
            if (st.skipped_bodies + st.skipped_contacts + st.skipped_rows > 0) {
                ++skipped_steps;
            }
            if (st.energy_scale < 1.0) {
                ++scaled_steps;
            }
        }

        if (step % opt.check_every == 0 || step == opt.steps) {
            const Measure m = measure(t);
            const double e = m.e;
            energy_at[(size_t)n_energy++] = e;
            nan_count += m.bad;
            if (std::isfinite(e)) {
                e_max = std::max(e_max, e);
            }
            e_sphere_max = std::max(e_sphere_max, m.e_sphere);
            if (m.v > v_max_seen) {
                v_max_seen = m.v;
                v_max_step = step;
                v_max_sphere = m.v_index;
            }
            if (step > step_10) {
                v_max_steady = std::max(v_max_steady, m.v);
            }
            worst_out = std::max(worst_out, m.outside);
            worst_joint = std::max(worst_joint, p2p_error());
            if (step > step_10 && step <= step_20) {
                e_sum_w1 += e;
                ++e_n_w1;
            }
            if (step > step_90) {
                e_sum_w2 += e;
                ++e_n_w2;
            }
            if (m.bad > 0 || !std::isfinite(e)) {
                std::snprintf(buf, sizeof buf,
                              "finite: %d non-finite values in the bodies' "
                              "state at step %ld",
                              m.bad, step);
                fail(buf);
            } else if (m.outside > inside_slack) {
                std::snprintf(buf, sizeof buf,
                              "inside: a sphere centre is %.3f m outside "
                              "the box's inner volume less R (slack %.3f m) "
                              "at step %ld",
                              m.outside, inside_slack, step);
                fail(buf);
            } else if (!(m.e_sphere <= e_ceiling)) {
                std::snprintf(buf, sizeof buf,
                              "energy: a sphere has %.1f J > the per-sphere "
                              "ceiling %.1f J at step %ld",
                              m.e_sphere, e_ceiling, step);
                fail(buf);
            } else if (!(e <= e_bound)) {
                std::snprintf(buf, sizeof buf,
                              "energy: E = %.1f J > bound %.1f J at step %ld",
                              e, e_bound, step);
                fail(buf);
            } else if (!(worst_joint < kR)) {
                std::snprintf(buf, sizeof buf,
                              "joints: a point2point joint is %.3f m apart "
                              "(>= R) at step %ld",
                              worst_joint, step);
                fail(buf);
            }
        }
        if (failures.empty() && fallback_steps > 0) {
            std::snprintf(buf, sizeof buf,
                          "cone: step %ld was not solved by the cone solver "
                          "(rows 0: handed to Bullet's solver)",
                          step);
            fail(buf);
        }
        if (failures.empty() && bad_residuals > 0) {
            std::snprintf(buf, sizeof buf, "finite: residual %g at step %ld",
                          st.residual, step);
            fail(buf);
        }
        if (failures.empty() && skipped_steps > 0) {
            std::snprintf(buf, sizeof buf,
                          "cone: the shim left out %d bodies, %d contacts, "
                          "%d joint rows (invalid data) at step %ld",
                          st.skipped_bodies, st.skipped_contacts,
                          st.skipped_rows, step);
            fail(buf);
        }
        if (!opt.stock && (step == step_10 || step == opt.steps)) {
            rolling_activity();
        }
        if (step == step_10) {
            mem_10 = mem_now();
            manifolds_10 = dispatcher->getNumManifolds();
        }
        if (step == step_mid) {
            mem_mid = mem_now();
        }
        if (step % rss_every == 0 && step / rss_every < n_rss_samples) {
            rss_samples[(size_t)(step / rss_every)] = mem_now().rss;
        }
        if (!opt.quiet && (step % progress_every == 0 || !failures.empty())) {
            const Mem mm = mem_now();
            std::printf("  step %8ld  t %7.1f s  wall %7.1f s  contacts %5d  "
                        "manifolds %5d  it %4d  res %.2e  E %9.1f J  %s "
                        "%.2f MiB  heap %.2f/%.2f MiB\n",
                        step, t, now() - t_start, st.contacts,
                        dispatcher->getNumManifolds(), st.iterations,
                        st.residual, n_energy ? energy_at[n_energy - 1] : 0.0,
                        SOAK_ASAN ? "live" : "RSS", mm.rss / 1048576.0,
                        mm.heap_used / 1048576.0, mm.heap_total / 1048576.0);
            std::fflush(stdout);
        }
        if (!failures.empty()) {
            break;
        }
    }
    const long steps_done = std::min(step, opt.steps);
    mem_end = mem_now();
    manifolds_end = dispatcher->getNumManifolds();
    const double wall = now() - t_start;
    // A run stopped early by a failure is not checked further.
    const bool complete = failures.empty();
    const double rss_ratio =
        mem_10.rss > 0 ? (double)mem_end.rss / (double)mem_10.rss : 0.0;
    // growth over each half of the span; the check takes the smaller
    const double half_a =
        mem_10.rss > 0 ? (double)mem_mid.rss / (double)mem_10.rss : 0.0;
    const double half_b =
        mem_mid.rss > 0 ? (double)mem_end.rss / (double)mem_mid.rss : 0.0;
    const double half_min = std::min(half_a, half_b);
    const double e_w1 = e_n_w1 ? e_sum_w1 / e_n_w1 : 0.0;
    const double e_w2 = e_n_w2 ? e_sum_w2 / e_n_w2 : 0.0;
    if (complete) {
        if (!(mem_10.rss > 0 && mem_mid.rss > 0 && mem_end.rss > 0)) {
            fail(SOAK_ASAN ? "live heap (ASan): no count"
                           : "rss: /proc/self/statm could not be read");
        } else if (!(half_min <= 1.0 + 0.5 * opt.rss_tolerance)) {
            std::snprintf(
                buf, sizeof buf,
                "%s grew in both halves of steps (%ld, %ld]: %.2f -> %.2f "
                "-> %.2f MiB at steps %ld, %ld, %ld (ratios %.4f, %.4f; "
                "limit %.4f for the smaller; heap in use %.2f -> %.2f MiB, "
                "heap held %.2f -> %.2f MiB)",
                SOAK_ASAN ? "live heap (ASan)" : "rss", step_10, opt.steps,
                mem_10.rss / 1048576.0, mem_mid.rss / 1048576.0,
                mem_end.rss / 1048576.0, step_10, step_mid, opt.steps, half_a,
                half_b, 1.0 + 0.5 * opt.rss_tolerance,
                mem_10.heap_used / 1048576.0, mem_end.heap_used / 1048576.0,
                mem_10.heap_total / 1048576.0, mem_end.heap_total / 1048576.0);
            fail(buf);
        }
        if (e_n_w1 > 0 && e_n_w2 > 0 && !(e_w2 <= growth_limit * e_w1)) {
            std::snprintf(buf, sizeof buf,
                          "growth: mean E over the last 10%% %.1f J > %.2f x "
                          "mean E over steps (10%%, 20%%] %.1f J",
                          e_w2, growth_limit, e_w1);
            fail(buf);
        }
        if (!opt.stock && roll_with == 0) {
            fail("cone: no contact point carried a rolling impulse (the "
                 "rolling cone is not active)");
        }
    }

    residuals.resize((size_t)steps_done);
    iterations.resize((size_t)steps_done);
    contacts.resize((size_t)steps_done);
    step_ms.resize((size_t)steps_done);
    const Summary rs = summarize(residuals), is = summarize(iterations),
                  cs = summarize(contacts), ms = summarize(step_ms);
    long converged = 0;
    for (long i = 0; i < steps_done; ++i) {
        converged += residuals[(size_t)i] <= opt.tol;
    }
    const double conv_frac = steps_done ? (double)converged / steps_done : 0.0;
    const bool pass = failures.empty();
    const double MiB = 1048576.0;
    std::printf(
        "soak: %s: %ld of %ld steps, %d spheres, %.1f s wall (%.2f ms/step "
        "median)\n"
        "  memory: %s %.2f MiB at step %ld (10%%), %.2f MiB at step %ld, "
        "%.2f MiB at the end: halves %.4f, %.4f (limit %.4f for the "
        "smaller; whole span %.4f); heap in use %.2f -> %.2f MiB, held %.2f "
        "-> %.2f MiB; Bullet manifolds %d -> %d (max %d, pool %d), "
        "overlapping pairs max %d\n"
        "  energy: max %.1f J (E(0) %.1f J, bound %.1f J); mean over "
        "(10%%,20%%] %.1f J, last 10%% %.1f J (limit x%.2f); largest sphere "
        "energy %.2f J (ceiling %.1f J); fastest sphere %.2f m/s (sphere %d, "
        "step %ld), after 10%% %.2f m/s\n"
        "  state: non-finite values %ld; worst outside %.4f m (slack %.3f); "
        "point2point error max %.2f mm (limit %.0f)\n"
        "  solver: fallback steps %ld, steps with skipped data %ld, steps "
        "with energy-scaled impulses %ld; contacts %.0f/%.0f/%.0f, "
        "iterations %.0f/%.0f/%.0f, residual %.2e/%.2e/%.2e "
        "(min/median/max), converged %.1f%%; rolling impulses at %ld of %ld "
        "sampled points (%ld on the rolling cone)\n",
        pass ? "PASS" : "FAIL", steps_done, opt.steps, N, wall, ms.median,
        SOAK_ASAN ? "live heap (ASan)" : "RSS", mem_10.rss / MiB, step_10,
        mem_mid.rss / MiB, step_mid, mem_end.rss / MiB, half_a, half_b,
        1.0 + 0.5 * opt.rss_tolerance, rss_ratio, mem_10.heap_used / MiB,
        mem_end.heap_used / MiB, mem_10.heap_total / MiB,
        mem_end.heap_total / MiB, manifolds_10, manifolds_end, manifolds_max,
        opt.pool, pairs_max, e_max, e0, e_bound, e_w1, e_w2, growth_limit,
        e_sphere_max, e_ceiling, v_max_seen, v_max_sphere, v_max_step,
        v_max_steady, nan_count, worst_out, inside_slack, 1e3 * worst_joint,
        1e3 * kR, fallback_steps, skipped_steps, scaled_steps, cs.min,
        cs.median, cs.max, is.min, is.median, is.max, rs.min, rs.median, rs.max,
        100.0 * conv_frac, roll_with, roll_points, roll_boundary);

    if (!opt.out.empty()) {
        FILE *f = std::fopen(opt.out.c_str(), "w");
        if (f == nullptr) {
            std::fprintf(stderr, "soak: cannot write %s\n", opt.out.c_str());
            return 1;
        }
        std::fprintf(f, "{\n  \"program\": \"soak\",\n  \"pass\": %s,\n",
                     pass ? "true" : "false");
        std::fprintf(f, "  \"failures\": [");
        for (size_t i = 0; i < failures.size(); ++i) {
            std::string esc;
            for (char c : failures[i]) {
                if (c == '"' || c == '\\') {
                    esc += '\\';
                }
                esc += c;
            }
            std::fprintf(f, "%s\"%s\"", i ? ", " : "", esc.c_str());
        }
        std::fprintf(f, "],\n");
        std::fprintf(f,
                     "  \"steps\": %ld,\n  \"steps_requested\": %ld,\n"
                     "  \"dt\": %.8f,\n  \"spheres\": %d,\n"
                     "  \"joints\": {\"point2point\": %zu, \"hinge\": %d, "
                     "\"generic6dof_spring2\": %d},\n",
                     steps_done, opt.steps, opt.dt, N, p2p.size(), n_hinge,
                     n_6dof);
        std::fprintf(f,
                     "  \"box\": {\"inner_m\": [2.4, %.3f, 2.4], "
                     "\"shake_x\": {\"amplitude_m\": %g, \"frequency_hz\": "
                     "%g}, \"shake_y\": {\"amplitude_m\": %g, "
                     "\"frequency_hz\": %g}, \"max_speed\": %.4f, "
                     "\"max_acceleration\": %.3f},\n",
                     H, kAx, kFx, kAy, kFy, Vmax, amax);
        std::fprintf(f,
                     "  \"mode\": \"%s\",\n  \"solver\": \"%s\",\n"
                     "  \"max_iter\": %d,\n  \"tol\": %g,\n  \"threads\": "
                     "%d,\n  \"pool\": %d,\n  \"pool_auto\": %s,\n"
                     "  \"check_every\": %ld,\n",
                     opt.stock ? "stock" : "cone", opt.solver_name,
                     opt.iterations, opt.tol, opt.threads, opt.pool,
                     pool_auto ? "true" : "false", opt.check_every);
        std::fprintf(f,
                     "  \"wall_s\": %.2f,\n  \"ms_per_step\": {\"min\": %.3f, "
                     "\"median\": %.3f, \"max\": %.3f},\n"
                     "  \"load_average_end\": %.2f,\n",
                     wall, ms.min, ms.median, ms.max, load_average());
        std::fprintf(f,
                     "  \"rss\": {\"at_step\": %ld, \"at_10pct_bytes\": %ld, "
                     "\"mid_step\": %ld, \"mid_bytes\": %ld, "
                     "\"end_bytes\": %ld, \"ratio\": %.5f, "
                     "\"half_ratios\": [%.5f, %.5f], "
                     "\"limit_smaller_half\": %.4f, "
                     "\"samples_every_steps\": %ld, \"samples_bytes\": [",
                     step_10, mem_10.rss, step_mid, mem_mid.rss, mem_end.rss,
                     rss_ratio, half_a, half_b, 1.0 + 0.5 * opt.rss_tolerance,
                     rss_every);
        for (int k = 0; k < n_rss_samples; ++k) {
            std::fprintf(f, "%s%ld", k ? ", " : "", rss_samples[(size_t)k]);
        }
        std::fprintf(f, "]},\n");
        std::fprintf(f,
                     "  \"heap\": {\"in_use_10pct_bytes\": %ld, "
                     "\"in_use_end_bytes\": %ld, \"held_10pct_bytes\": %ld, "
                     "\"held_end_bytes\": %ld},\n",
                     mem_10.heap_used, mem_end.heap_used, mem_10.heap_total,
                     mem_end.heap_total);
        std::fprintf(f,
                     "  \"bullet\": {\"manifolds_10pct\": %d, "
                     "\"manifolds_end\": %d, \"manifolds_max\": %d, "
                     "\"manifold_pool\": %d, \"overlapping_pairs_max\": %d},\n",
                     manifolds_10, manifolds_end, manifolds_max, opt.pool,
                     pairs_max);
        std::fprintf(f,
                     "  \"energy\": {\"initial\": %.3f, \"max\": %.3f, "
                     "\"bound\": %.3f, \"mean_10_20pct\": %.3f, "
                     "\"mean_last_10pct\": %.3f, \"growth_limit\": %.2f, "
                     "\"max_sphere\": %.4f, \"sphere_ceiling\": %.3f, "
                     "\"max_speed\": %.4f, \"max_speed_step\": %ld, "
                     "\"max_speed_after_10pct\": %.4f},\n",
                     e0, e_max, e_bound, e_w1, e_w2, growth_limit, e_sphere_max,
                     e_ceiling, v_max_seen, v_max_step, v_max_steady);
        std::fprintf(f,
                     "  \"worst_outside_m\": %.5f,\n  \"inside_slack_m\": "
                     "%.3f,\n  \"p2p_error_max_m\": %.6f,\n"
                     "  \"nan_count\": %ld,\n  \"fallback_steps\": %ld,\n"
                     "  \"skipped_steps\": %ld,\n  \"energy_scaled_steps\": "
                     "%ld,\n",
                     worst_out, inside_slack, worst_joint, nan_count,
                     fallback_steps, skipped_steps, scaled_steps);
        std::fprintf(f,
                     "  \"rf_stats\": {\"contacts\": {\"min\": %.0f, "
                     "\"median\": %.0f, \"max\": %.0f}, \"iterations\": "
                     "{\"min\": %.0f, \"median\": %.0f, \"max\": %.0f}, "
                     "\"residual\": {\"min\": %.4g, \"median\": %.4g, "
                     "\"max\": %.4g}, \"converged_fraction\": %.4f},\n",
                     cs.min, cs.median, cs.max, is.min, is.median, is.max,
                     rs.min, rs.median, rs.max, conv_frac);
        std::fprintf(f,
                     "  \"rolling\": {\"points_sampled\": %ld, "
                     "\"with_rolling_impulse\": %ld, \"on_rolling_cone\": "
                     "%ld}\n}\n",
                     roll_points, roll_with, roll_boundary);
        std::fclose(f);
    }
    rf_bullet_detach(rf);
    return pass ? 0 : 1;
}
