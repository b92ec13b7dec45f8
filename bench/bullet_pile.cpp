// rfbench_bullet: Bullet scene benchmark.  Each scene is one
// Bullet world stepped by the stock solver (btSequentialImpulseConstraint-
// Solver, its default 10 iterations, with its rolling and spinning rows)
// and by the cone solver (rollfric, full 6D cone model, associated) at the
// same iteration count (max_iter = K, tol = 0) and to a tolerance (tol =
// 1e-4, at most 1000 iterations), OpenMP threads 1 and 2, interleaved on
// the same world; ms per step, medians, ratios cone / stock, the cone step
// split into contact build, solve and write-back; JSON out, table on
// stdout, and the piles' goal checked.
//
//   rfbench_bullet [--quick] [--scenes pile,wall,chain]
//                  [--spheres 1000,5000,20000,50000] [--chains C]
//                  [--iterations K] [--rounds R] [--steps S]
//                  [--settle SECONDS] [--threads 1,2]
//                  [--solvers gs,gs_colored,apgd]      (K-iteration runs)
//                  [--tol T] [--tol-max-iter M] [--tol-solvers apgd]
//                  [--tol-max-size N] [--tol-threads 1,2]
//                  [--no-tol]                          (tolerance runs)
//                  [--no-restore] [--out FILE]
//
// Defaults: all scenes, piles of 1k, 5k, 20k and 50k spheres, K = 10, 3
// rounds of 5 timed steps, settle 0.5 s, tolerance runs with APGD only
// (GS would need about a minute per 1000-iteration step on 50k spheres,
// estimated).  The full run takes long: one stock step of the 50k pile
// is 2.6 s under load, and the tolerance runs do up to 1000 iterations
// per step; --tol-max-size 20000 or --no-tol shorten it.  GS is
// sequential: it runs on 1 thread only.
// --quick: piles of 1k and 5k, the wall and the chains, coloured GS and
// APGD, 2 rounds of 2 steps, settle 0.25 s, tolerance runs (APGD, at most
// 100 iterations, 1 thread) only on scenes of at most 1000 bodies: 41 s
// wall (15 s CPU) on the 2-core machine under a load average of 7-8 from
// other jobs.  2-thread runs on a machine whose cores are busy are not
// meaningful (OpenMP barriers wait for descheduled threads).
//
// Scenes (y up, h = 1/60 s, one substep; deactivation disabled, so every
// step solves everything; every dynamic body has friction 0.5, rolling and
// spinning friction 0.01 m, every static body friction 1.0, so Bullet's
// combine rules give mu = 0.25 between bodies and 0.5 with static ones,
// rho = sigma = 0.01 m at every contact):
//
//   pile   N spheres, R = 0.1 m, 1 kg, built already at rest (dropping
//          and settling 50k spheres would take very long here): a loosened
//          face-centred packing in square layers between four static wall
//          planes on a ground plane.  Even layers are n x n spheres 0.22 m
//          apart (not touching each other), odd layers (n-1) x (n-1) spheres in
//          the hollows, each touching the four spheres below (layer height
//          sqrt(0.2^2 - 0.22^2/2) = 0.126 m, built 0.5 mm overlapped); the
//          walls touch the outer spheres of the even layers;
//          n = round(sqrt(N / 10) + 0.5) gives 9-11 layers, the top one
//          partly filled.  Every sphere above the first layer rests on four
//          below (edge spheres on two and a wall), the first layer on the
//          ground: 3.7 contacts per sphere as built.  After settling (0.5 s
//          of stock steps, --settle) Bullet has 3.34, 3.42, 3.47 and 3.46
//          contact points per sphere for 1k, 5k, 20k and 50k (measured
//          after 0.25 s; printed, contacts_per_body in the JSON), the cone
//          solver 3.5-3.7 (contacts_median / size).  The pile stays in
//          place, but its spheres keep speeds of 0.2-0.5 m/s at most
//          (stock's 10 iterations do not carry ten layers' weight within
//          one step; g h = 0.16 m/s).
//   wall   a 10 x 10 wall of boxes 1.0 x 0.5 x 0.5 m, 2 kg, standing on a
//          static ground box in running bond: rows alternately shifted by
//          +-1/8 box length, so each box rests on the two below it (3/4
//          and 1/4 of its length), except one end box per row that rests
//          on one (3/4 supported); 1 cm gaps within a row (7.2 contact
//          points per box).
//   chain  C ragdoll-style chains (default 10, 0.6 m apart) of 20 capsules
//          (radius 0.1 m, 0.5 m long along x, 1 kg, 0.52 m pitch) lying
//          straight on a ground box; joints alternate btConeTwistConstraint
//          (swing 45 deg, twist 22.5 deg) and btHingeConstraint (axis y,
//          +-60 deg), linked bodies do not collide, and the first link of
//          each chain is pinned to the world by a btPoint2PointConstraint
//          (78 joint rows per chain; 1.2 contact points per capsule).  The
//          cone solver solves the joints' rows and the contacts as one
//          problem.
//
// After settling with stock, the bodies' state is saved.  Each round
// (outermost loop) runs one block per configuration: stock, then each
// cone configuration, on the same world (rf_bullet_set_mode /
// rf_bullet_set_config); a block restores the saved state (positions,
// orientations, velocities; --no-restore keeps the state the previous
// block left), steps once untimed, then S timed steps.  A step's time is
// the whole stepSimulation; collision detection is timed inside it
// (performDiscreteCollisionDetection), the stock solver by a timing
// subclass of btSequentialImpulseConstraintSolver, the cone solver by
// rf_bullet_timing_get (build, solve, write-back, total); "other" is the
// rest (islands, integration, motion states).  The 1-minute load average
// is recorded: the machine may be shared; compare medians.
#include <rollfric/rollfric_bullet.h>

#include "bench_util.hpp"
#include "bullet_world.hpp"

#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

const btScalar kStep = btScalar(1.0 / 60);

using rfbench::now;

// The 1-minute load average (other work on the machine), -1 if unknown.
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

using rfbench::median;
using rfbench::split;

// The stock solver, timed: the seconds its solveGroup calls took (in
// RF_BULLET_STOCK mode the plugin hands it the whole step as one batch).
class TimedSolver : public btSequentialImpulseConstraintSolver {
  public:
    double seconds = 0;
    btScalar solveGroup(btCollisionObject **bodies, int num_bodies,
                        btPersistentManifold **manifolds, int num_manifolds,
                        btTypedConstraint **constraints, int num_constraints,
                        const btContactSolverInfo &info, btIDebugDraw *draw,
                        btDispatcher *dispatcher) override
    {
        const double t0 = now();
        btScalar r = btSequentialImpulseConstraintSolver::solveGroup(
            bodies, num_bodies, manifolds, num_manifolds, constraints,
            num_constraints, info, draw, dispatcher);
        seconds += now() - t0;
        return r;
    }
};

// The world, with its collision detection timed.
class TimedWorld : public btDiscreteDynamicsWorld {
  public:
    using btDiscreteDynamicsWorld::btDiscreteDynamicsWorld;
    double collision_seconds = 0;
    void performDiscreteCollisionDetection() override
    {
        const double t0 = now();
        btDiscreteDynamicsWorld::performDiscreteCollisionDetection();
        collision_seconds += now() - t0;
    }
};

// The world (bench/bullet_world.hpp: configuration, dispatcher,
// broadphase, solver, world, g = 9.81; the shapes, states, bodies and
// joints it owns) with the timed solver and world, and the scene's bodies.
struct Scene : rfbullet::World<TimedSolver, TimedWorld> {
    std::string name;        // "pile", "wall", "chain"
    int size = 0;            // spheres, boxes or links
    std::string description; // one line
    int dynamic = 0;

    // static: no motion state, friction 1.0
    btRigidBody *add_static(btCollisionShape *s, const btVector3 &pos)
    {
        btRigidBody::btRigidBodyConstructionInfo ci(0, nullptr, s);
        ci.m_startWorldTransform.setOrigin(pos);
        bodies.emplace_back(new btRigidBody(ci));
        btRigidBody *b = bodies.back().get();
        b->setFriction(1.0f);
        world.addRigidBody(b);
        return b;
    }
    // dynamic: friction 0.5, rolling and spinning 0.01 m, never sleeps
    btRigidBody *add_dynamic(btCollisionShape *s, btScalar mass,
                             const btVector3 &pos)
    {
        ++dynamic;
        return add_body(s, mass, btTransform(btQuaternion::getIdentity(), pos),
                        0.5, 0.01, 0.01, false);
    }
    void step()
    {
        World::step(kStep);
    }

    // Manifold points the solvers see (within the processing threshold).
    int contact_points()
    {
        int n = 0;
        for (int i = 0; i < dispatcher.getNumManifolds(); ++i) {
            const btPersistentManifold *m =
                dispatcher.getManifoldByIndexInternal(i);
            for (int k = 0; k < m->getNumContacts(); ++k) {
                if (m->getContactPoint(k).getDistance() <=
                    m->getContactProcessingThreshold()) {
                    ++n;
                }
            }
        }
        return n;
    }
    // Scalar rows of the enabled joints, as getInfo1 reports them now.
    int joint_rows()
    {
        int n = 0;
        for (auto &j : joints) {
            if (j->isEnabled()) {
                btTypedConstraint::btConstraintInfo1 info;
                j->getInfo1(&info);
                n += info.m_numConstraintRows;
            }
        }
        return n;
    }
    // The dynamic bodies' state, to start every configuration's steps
    // from the same settled pile (contact manifolds are kept: the next
    // collision detection refreshes their points).
    struct BodyState {
        btTransform x;
        btVector3 v, w;
    };
    std::vector<BodyState> snapshot;
    void save()
    {
        snapshot.clear();
        for (const auto &b : bodies) {
            snapshot.push_back({b->getWorldTransform(), b->getLinearVelocity(),
                                b->getAngularVelocity()});
        }
    }
    void restore()
    {
        for (size_t i = 0; i < bodies.size() && i < snapshot.size(); ++i) {
            btRigidBody *b = bodies[i].get();
            if (b->getInvMass() == 0) {
                continue;
            }
            const BodyState &st = snapshot[i];
            b->setWorldTransform(st.x);
            b->setInterpolationWorldTransform(st.x);
            b->setLinearVelocity(st.v);
            b->setAngularVelocity(st.w);
            b->setInterpolationLinearVelocity(st.v);
            b->setInterpolationAngularVelocity(st.w);
            b->clearForces();
            if (b->getMotionState() != nullptr) {
                b->getMotionState()->setWorldTransform(st.x);
            }
        }
    }
    double max_speed() const
    {
        double v = 0;
        for (const auto &b : bodies) {
            if (b->getInvMass() > 0) {
                v = std::max(v, (double)b->getLinearVelocity().length());
            }
        }
        return v;
    }
};

// Loosened FCC in square layers between walls (see the header comment).
void build_pile(Scene &s, int n_spheres)
{
    const double r = 0.1, gap = 0.22, overlap = 0.0005;
    const double dy =
        std::sqrt((2 * r - overlap) * (2 * r - overlap) - gap * gap / 2);
    const int n =
        std::max(3, (int)std::lround(std::sqrt(n_spheres / 10.0) + 0.5));
    const double x0 = -0.5 * gap * (n - 1); // first even-layer sphere
    s.name = "pile";
    s.size = n_spheres;
    btCollisionShape *ball = s.own(new btSphereShape((btScalar)r));
    // ground y = 0 and walls touching the even layers' outer spheres
    s.add_static(s.own(new btStaticPlaneShape(btVector3(0, 1, 0), 0)),
                 btVector3(0, 0, 0));
    const double wall = -x0 + r - overlap;
    const btVector3 normals[4] = {{1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}};
    for (const btVector3 &nrm : normals) {
        s.add_static(s.own(new btStaticPlaneShape(nrm, (btScalar)-wall)),
                     btVector3(0, 0, 0));
    }
    int placed = 0, layers = 0;
    for (int layer = 0; placed < n_spheres; ++layer, ++layers) {
        const bool odd = layer % 2;
        const int m = odd ? n - 1 : n;
        const double off = x0 + (odd ? 0.5 * gap : 0.0);
        const double y = r - overlap + layer * dy;
        for (int k = 0; k < m * m && placed < n_spheres; ++k, ++placed) {
            btVector3 pos((btScalar)(off + gap * (k % m)), (btScalar)y,
                          (btScalar)(off + gap * (k / m)));
            s.add_dynamic(ball, 1.0f, pos);
        }
    }
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "%d spheres R=0.1 m in %d square layers (%d x %d / %d x "
                  "%d, 0.22 m apart, odd layers in the hollows), walls",
                  n_spheres, layers, n, n, n - 1, n - 1);
    s.description = buf;
}

// 10 x 10 running-bond wall (see the header comment).
void build_wall(Scene &s, int rows, int cols)
{
    const double hx = 0.5, hy = 0.25, hz = 0.25, gap = 0.01, overlap = 0.001;
    const double pitch = 2 * hx + gap;
    s.name = "wall";
    s.size = rows * cols;
    s.add_static(s.own(new btBoxShape(btVector3(50, 0.5f, 50))),
                 btVector3(0, -0.5f, 0));
    btCollisionShape *box = s.own(
        new btBoxShape(btVector3((btScalar)hx, (btScalar)hy, (btScalar)hz)));
    for (int row = 0; row < rows; ++row) {
        const double shift = (row % 2 ? 0.125 : -0.125) * 2 * hx;
        const double y = hy - overlap + row * (2 * hy - overlap);
        for (int c = 0; c < cols; ++c) {
            const double x = (c - 0.5 * (cols - 1)) * pitch + shift;
            s.add_dynamic(box, 2.0f, btVector3((btScalar)x, (btScalar)y, 0));
        }
    }
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "%d x %d boxes 1.0 x 0.5 x 0.5 m, running bond (rows "
                  "shifted +-1/8 box: each box on two below)",
                  rows, cols);
    s.description = buf;
}

// Ragdoll-style capsule chains lying on the ground (see the header).
void build_chain(Scene &s, int chains, int links)
{
    const double radius = 0.1, half = 0.15, gap = 0.02, overlap = 0.0005;
    const double pitch = 2 * (half + radius) + gap; // 0.52 m
    s.name = "chain";
    s.size = chains * links;
    s.add_static(s.own(new btBoxShape(btVector3(50, 0.5f, 50))),
                 btVector3(0, -0.5f, 0));
    btCollisionShape *capsule =
        s.own(new btCapsuleShapeX((btScalar)radius, (btScalar)(2 * half)));
    const btScalar y = (btScalar)(radius - overlap);
    const btScalar end = (btScalar)(0.5 * pitch); // joint: half-way
    for (int c = 0; c < chains; ++c) {
        const double z = (c - 0.5 * (chains - 1)) * 0.6;
        const double x0 = -0.5 * pitch * (links - 1);
        btRigidBody *prev = nullptr;
        for (int k = 0; k < links; ++k) {
            btRigidBody *b = s.add_dynamic(
                capsule, 1.0f,
                btVector3((btScalar)(x0 + pitch * k), y, (btScalar)z));
            if (prev == nullptr) {
                s.add_joint(
                    new btPoint2PointConstraint(*b, btVector3(-end, 0, 0)));
            } else if (k % 2) {
                btTransform fa, fb; // twist axis x
                fa.setIdentity();
                fb.setIdentity();
                fa.setOrigin(btVector3(end, 0, 0));
                fb.setOrigin(btVector3(-end, 0, 0));
                auto *j = new btConeTwistConstraint(*prev, *b, fa, fb);
                j->setLimit((btScalar)(SIMD_PI / 4), (btScalar)(SIMD_PI / 4),
                            (btScalar)(SIMD_PI / 8));
                s.add_joint(j);
            } else {
                auto *j = new btHingeConstraint(
                    *prev, *b, btVector3(end, 0, 0), btVector3(-end, 0, 0),
                    btVector3(0, 1, 0), btVector3(0, 1, 0));
                j->setLimit((btScalar)(-SIMD_PI / 3), (btScalar)(SIMD_PI / 3));
                s.add_joint(j);
            }
            prev = b;
        }
    }
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "%d chains x %d capsules (R=0.1 m, 0.5 m) lying on the "
                  "ground, cone-twist/hinge joints, first link pinned",
                  chains, links);
    s.description = buf;
}

struct Variant {
    std::string name; // "stock", "<solver>-<K>it-<t>t", "<solver>-tol-<t>t"
    std::string solver;
    rf_solver_kind kind = RF_SOLVER_APGD;
    int threads = 1;
    int max_iter = 10;
    double tol = 0;
    bool fixed = true; // fixed iteration count (tol = 0)
    std::vector<double> ms, collision_ms, solver_ms, build_ms, solve_ms,
        write_back_ms, other_ms, contacts, joint_rows, iterations, residual;
    int converged = 0;
    bool stock() const
    {
        return solver == "stock";
    }
};

struct SceneResult {
    std::string scene, description;
    int size = 0, bodies = 0;
    double settle_s = 0, settle_wall_s = 0, max_speed = 0;
    double contacts_per_body = 0;
    std::vector<Variant> variants;
};

struct Options {
    std::vector<std::string> scenes = {"pile", "wall", "chain"};
    std::vector<int> spheres = {1000, 5000, 20000, 50000};
    int chains = 10, iterations = 10, tol_max_iter = 1000, rounds = 3,
        steps = 5;
    double tol = 1e-4, settle = 0.5;
    bool with_tol = true, quick = false, restore = true;
    int tol_max_size = 0; // tolerance configurations only up to this size
                          // (0: all sizes)
    std::vector<int> threads = {1, 2};
    std::vector<int> tol_threads; // empty: as threads
    std::vector<std::string> solvers = {"gs", "gs_colored", "apgd"};
    std::vector<std::string> tol_solvers = {"apgd"};
    const char *out = "bench/results/rfbench-bullet.json";
    double load_start = -1, load_end = -1; // 1-minute load averages
};

bool solver_kind(const std::string &s, rf_solver_kind *k)
{
    if (s == "gs") {
        *k = RF_SOLVER_GS;
    } else if (s == "gs_colored") {
        *k = RF_SOLVER_GS_COLORED;
    } else if (s == "apgd") {
        *k = RF_SOLVER_APGD;
    } else if (s == "jacobi") {
        *k = RF_SOLVER_JACOBI;
    } else {
        return false;
    }
    return true;
}

std::vector<Variant> make_variants(const Options &o, bool with_tol)
{
    std::vector<Variant> vs;
    Variant st;
    st.name = "stock";
    st.solver = "stock";
    st.max_iter = o.iterations;
    vs.push_back(st);
    for (int pass = 0; pass < (with_tol ? 2 : 1); ++pass) {
        for (const std::string &s : pass == 0 ? o.solvers : o.tol_solvers) {
            const std::vector<int> &ts =
                pass == 1 && !o.tol_threads.empty() ? o.tol_threads : o.threads;
            for (int t : ts) {
                Variant v;
                solver_kind(s, &v.kind);
                if (v.kind == RF_SOLVER_GS && t > 1) {
                    continue; // sequential by construction
                }
                v.solver = s;
                v.threads = t;
                v.fixed = pass == 0;
                v.max_iter = v.fixed ? o.iterations : o.tol_max_iter;
                v.tol = v.fixed ? 0 : o.tol;
                v.name = s + "-" +
                         (v.fixed ? std::to_string(o.iterations) + "it"
                                  : std::string("tol")) +
                         "-" + std::to_string(t) + "t";
                vs.push_back(v);
            }
        }
    }
    return vs;
}

SceneResult run_scene(Scene &s, const Options &o)
{
    SceneResult res;
    res.scene = s.name;
    res.description = s.description;
    res.size = s.size;
    res.bodies = s.dynamic;
    res.variants = make_variants(
        o, o.with_tol && (o.tol_max_size <= 0 || s.size <= o.tol_max_size));
    s.world.getSolverInfo().m_numIterations = o.iterations;
    const int settle_steps = (int)std::lround(o.settle / kStep);
    const double t_settle = now();
    for (int i = 0; i < settle_steps; ++i) {
        s.step();
    }
    res.settle_s = settle_steps * kStep;
    res.settle_wall_s = now() - t_settle;
    res.max_speed = s.max_speed();
    res.contacts_per_body = (double)s.contact_points() / s.dynamic;
    std::printf("%s %d: %s\n  settled %.2f s (stock) in %.1f s wall; max "
                "speed %.3g m/s; %.2f contact points per body\n",
                s.name.c_str(), s.size, s.description.c_str(), res.settle_s,
                res.settle_wall_s, res.max_speed, res.contacts_per_body);
    std::fflush(stdout);

    s.save();
    rf_config cfg;
    rf_config_default(&cfg);
    rf_plugin *p = rf_bullet_attach(&s.world, &cfg);
    if (p == nullptr) {
        std::exit(1);
    }
    for (int r = 0; r < o.rounds; ++r) {
        for (Variant &v : res.variants) {
            rf_bullet_set_mode(p, v.stock() ? RF_BULLET_STOCK : RF_BULLET_CONE);
            if (!v.stock()) {
                cfg.solver = v.kind;
                cfg.threads = v.threads;
                cfg.max_iter = v.max_iter;
                cfg.tol = v.tol;
                if (rf_bullet_set_config(p, &cfg, nullptr) != RF_OK) {
                    std::exit(1);
                }
            }
            if (o.restore) {
                s.restore(); // every block starts from the settled state
            }
            s.step(); // untimed: the switch's first step
            for (int k = 0; k < o.steps; ++k) {
                s.world.collision_seconds = 0;
                s.solver.seconds = 0;
                const double t0 = now();
                s.step();
                const double ms = 1e3 * (now() - t0);
                const double cd = 1e3 * s.world.collision_seconds;
                v.ms.push_back(ms);
                v.collision_ms.push_back(cd);
                if (v.stock()) {
                    const double sol = 1e3 * s.solver.seconds;
                    v.solver_ms.push_back(sol);
                    v.other_ms.push_back(ms - cd - sol);
                    v.contacts.push_back(s.contact_points());
                    v.joint_rows.push_back(s.joint_rows());
                    v.iterations.push_back(o.iterations);
                } else {
                    rf_stats st;
                    rf_bullet_timing tm;
                    rf_bullet_stats(p, &st);
                    rf_bullet_timing_get(p, &tm);
                    v.solver_ms.push_back(1e3 * tm.total);
                    v.build_ms.push_back(1e3 * tm.build);
                    v.solve_ms.push_back(1e3 * tm.solve);
                    v.write_back_ms.push_back(1e3 * tm.write_back);
                    v.other_ms.push_back(ms - cd - 1e3 * tm.total);
                    v.contacts.push_back(st.contacts);
                    v.joint_rows.push_back(st.rows - 6 * st.contacts);
                    v.iterations.push_back(st.iterations);
                    v.residual.push_back(st.residual);
                    v.converged += st.converged;
                }
            }
        }
        std::printf("  round %d/%d done\n", r + 1, o.rounds);
        std::fflush(stdout);
    }
    rf_bullet_detach(p);

    const double stock_ms = median(res.variants[0].ms);
    std::printf("  %-22s %9s %6s %8s %8s %8s %8s %8s %8s %7s %6s %5s %9s\n",
                "config", "ms/step", "ratio", "collide", "solver", "build",
                "solve", "wback", "other", "contact", "jrows", "iter",
                "residual");
    for (const Variant &v : res.variants) {
        const double m = median(v.ms);
        if (v.stock()) {
            std::printf("  %-22s %9.3f %6.3f %8.3f %8.3f %8s %8s %8s %8.3f "
                        "%7.0f %6.0f %5.0f %9s\n",
                        v.name.c_str(), m, 1.0, median(v.collision_ms),
                        median(v.solver_ms), "-", "-", "-", median(v.other_ms),
                        median(v.contacts), median(v.joint_rows),
                        median(v.iterations), "-");
        } else {
            std::printf(
                "  %-22s %9.3f %6.3f %8.3f %8.3f %8.3f %8.3f %8.3f "
                "%8.3f %7.0f %6.0f %5.0f %9.2e\n",
                v.name.c_str(), m, m / stock_ms, median(v.collision_ms),
                median(v.solver_ms), median(v.build_ms), median(v.solve_ms),
                median(v.write_back_ms), median(v.other_ms), median(v.contacts),
                median(v.joint_rows), median(v.iterations), median(v.residual));
        }
    }
    std::fflush(stdout);
    return res;
}

// The piles' goal: cone at K iterations <= 1.0x stock on 1 thread and
// <= 0.6x on 2 threads, piles of 5k and 20k spheres.
struct TargetCheck {
    int spheres, threads;
    double limit;
    bool measured = false;
    std::string best;
    double best_ratio = 0;
    std::vector<std::pair<std::string, double>> ratios;
};

std::vector<TargetCheck> check_targets(const std::vector<SceneResult> &rs)
{
    std::vector<TargetCheck> cs;
    for (int n : {5000, 20000}) {
        for (int t : {1, 2}) {
            TargetCheck c{n, t, t == 1 ? 1.0 : 0.6, false, "", 0, {}};
            for (const SceneResult &r : rs) {
                if (r.scene != "pile" || r.size != n) {
                    continue;
                }
                const double stock = median(r.variants[0].ms);
                for (const Variant &v : r.variants) {
                    if (v.stock() || !v.fixed || v.threads != t) {
                        continue;
                    }
                    const double ratio = median(v.ms) / stock;
                    c.ratios.emplace_back(v.solver, ratio);
                    if (!c.measured || ratio < c.best_ratio) {
                        c.best = v.solver;
                        c.best_ratio = ratio;
                    }
                    c.measured = true;
                }
            }
            cs.push_back(c);
        }
    }
    return cs;
}

void json_variant(FILE *f, const Variant &v, double stock_ms, bool last)
{
    const double m = median(v.ms);
    std::fprintf(f,
                 "        {\"name\": \"%s\", \"solver\": \"%s\", \"threads\": "
                 "%d, \"max_iter\": %d, \"tol\": %g, \"steps\": %zu,\n"
                 "         \"ms_per_step_median\": %.4f, \"ratio_to_stock\": "
                 "%.4f, \"collision_ms_median\": %.4f, "
                 "\"solver_ms_median\": %.4f, \"other_ms_median\": %.4f,\n",
                 v.name.c_str(), v.solver.c_str(), v.threads, v.max_iter, v.tol,
                 v.ms.size(), m, m / stock_ms, median(v.collision_ms),
                 median(v.solver_ms), median(v.other_ms));
    if (v.stock()) {
        std::fprintf(f,
                     "         \"build_ms_median\": null, "
                     "\"solve_ms_median\": null, \"write_back_ms_median\": "
                     "null,\n         \"contacts_median\": %.0f, "
                     "\"joint_rows_median\": %.0f, \"iterations_median\": "
                     "%.0f, \"residual_median\": null, "
                     "\"converged_fraction\": null}%s\n",
                     median(v.contacts), median(v.joint_rows),
                     median(v.iterations), last ? "" : ",");
    } else {
        std::fprintf(f,
                     "         \"build_ms_median\": %.4f, "
                     "\"solve_ms_median\": %.4f, \"write_back_ms_median\": "
                     "%.4f,\n         \"contacts_median\": %.0f, "
                     "\"joint_rows_median\": %.0f, \"iterations_median\": "
                     "%.0f, \"residual_median\": %.3e, "
                     "\"converged_fraction\": %.3f}%s\n",
                     median(v.build_ms), median(v.solve_ms),
                     median(v.write_back_ms), median(v.contacts),
                     median(v.joint_rows), median(v.iterations),
                     median(v.residual),
                     v.ms.empty() ? 0.0 : (double)v.converged / v.ms.size(),
                     last ? "" : ",");
    }
}

bool write_json(const char *path, const Options &o,
                const std::vector<SceneResult> &rs,
                const std::vector<TargetCheck> &cs)
{
    FILE *f = std::fopen(path, "w");
    if (f == nullptr) {
        std::fprintf(stderr, "rfbench_bullet: cannot write %s\n", path);
        return false;
    }
    std::fprintf(f,
                 "{\n  \"benchmark\": \"rfbench_bullet\",\n  \"version\": 2,\n"
                 "  \"mode\": \"%s\",\n  \"hardware_threads\": %u,\n"
                 "  \"load_average_start\": %.2f,\n"
                 "  \"load_average_end\": %.2f,\n"
                 "  \"dt\": %.6f,\n  \"iterations\": %d,\n  \"tol\": %g,\n"
                 "  \"tol_max_iter\": %d,\n  \"rounds\": %d,\n"
                 "  \"steps_per_round\": %d,\n  \"settle_s\": %g,\n"
                 "  \"model\": \"associated\",\n"
                 "  \"tol_max_size\": %d,\n  \"restore_state\": %s,\n"
                 "  \"time_split\": \"ms_per_step = collision + solver + "
                 "other; cone solver = build + solve + write_back "
                 "(rf_bullet_timing_get)\",\n  \"scenes\": [\n",
                 o.quick ? "quick" : "full",
                 std::thread::hardware_concurrency(), o.load_start, o.load_end,
                 (double)kStep, o.iterations, o.tol, o.tol_max_iter, o.rounds,
                 o.steps, o.settle, o.tol_max_size,
                 o.restore ? "true" : "false");
    for (size_t i = 0; i < rs.size(); ++i) {
        const SceneResult &r = rs[i];
        std::fprintf(f,
                     "    {\"scene\": \"%s\", \"size\": %d, \"bodies\": %d, "
                     "\"description\": \"%s\",\n"
                     "     \"settle_wall_s\": %.2f, "
                     "\"max_speed_after_settle\": %.4g, "
                     "\"contacts_per_body\": %.3f,\n"
                     "     \"stock_ms_per_step\": %.4f,\n"
                     "     \"configs\": [\n",
                     r.scene.c_str(), r.size, r.bodies, r.description.c_str(),
                     r.settle_wall_s, r.max_speed, r.contacts_per_body,
                     median(r.variants[0].ms));
        const double stock_ms = median(r.variants[0].ms);
        for (size_t k = 0; k < r.variants.size(); ++k) {
            json_variant(f, r.variants[k], stock_ms,
                         k + 1 == r.variants.size());
        }
        std::fprintf(f, "     ]}%s\n", i + 1 < rs.size() ? "," : "");
    }
    bool all_measured = true, all_pass = true;
    for (const TargetCheck &c : cs) {
        all_measured = all_measured && c.measured;
        all_pass = all_pass && c.measured && c.best_ratio <= c.limit;
    }
    std::fprintf(f,
                 "  ],\n  \"targets\": {\n    \"target\": \"the piles' goal: "
                 "cone solver at %d iterations <= 1.0x stock step time on 1 "
                 "thread and <= 0.6x on 2 threads, piles of 5k and 20k "
                 "spheres (best solver per check)\",\n"
                 "    \"complete\": %s,\n    \"pass\": %s,\n"
                 "    \"checks\": [\n",
                 o.iterations, all_measured ? "true" : "false",
                 all_measured ? (all_pass ? "true" : "false") : "null");
    for (size_t i = 0; i < cs.size(); ++i) {
        const TargetCheck &c = cs[i];
        std::fprintf(f,
                     "      {\"scene\": \"pile\", \"spheres\": %d, "
                     "\"threads\": %d, \"limit\": %.1f, \"measured\": %s",
                     c.spheres, c.threads, c.limit,
                     c.measured ? "true" : "false");
        if (c.measured) {
            std::fprintf(f,
                         ", \"best_solver\": \"%s\", \"ratio\": %.4f, "
                         "\"pass\": %s, \"ratios\": {",
                         c.best.c_str(), c.best_ratio,
                         c.best_ratio <= c.limit ? "true" : "false");
            for (size_t k = 0; k < c.ratios.size(); ++k) {
                std::fprintf(f, "%s\"%s\": %.4f", k ? ", " : "",
                             c.ratios[k].first.c_str(), c.ratios[k].second);
            }
            std::fprintf(f, "}");
        } else {
            std::fprintf(f, ", \"pass\": null");
        }
        std::fprintf(f, "}%s\n", i + 1 < cs.size() ? "," : "");
    }
    std::fprintf(f, "    ]\n  }\n}\n");
    std::fclose(f);
    return true;
}

std::vector<int> int_list(const char *v)
{
    std::vector<int> out;
    for (auto &t : split(v)) {
        out.push_back(std::atoi(t.c_str()));
    }
    return out;
}

int usage(const char *argv0)
{
    std::fprintf(stderr,
                 "usage: %s [--quick] [--scenes pile,wall,chain] [--spheres "
                 "1000,5000,20000,50000] [--chains C] [--iterations K] "
                 "[--tol T] [--tol-max-iter M] [--tol-max-size N] [--no-tol] "
                 "[--no-restore] [--rounds R] "
                 "[--steps S] [--settle SECONDS] [--threads 1,2] [--solvers "
                 "gs,gs_colored,apgd,jacobi] [--tol-solvers apgd] "
                 "[--tol-threads 1,2] [--out FILE]\n",
                 argv0);
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    Options o;
    // --quick first, so that explicit options given with it win
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--quick")) {
            o.quick = true;
            o.spheres = {1000, 5000};
            o.solvers = {"gs_colored", "apgd"};
            o.rounds = 2;
            o.steps = 2;
            o.tol_max_iter = 100;
            o.tol_max_size = 1000;
            o.tol_threads = {1};
            o.settle = 0.25;
        }
    }
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!std::strcmp(a, "--quick")) {
            continue;
        } else if (!std::strcmp(a, "--no-tol")) {
            o.with_tol = false;
            continue;
        } else if (!std::strcmp(a, "--no-restore")) {
            o.restore = false;
            continue;
        } else if (v == nullptr) {
            return usage(argv[0]);
        }
        ++i;
        if (!std::strcmp(a, "--scenes")) {
            o.scenes = split(v);
        } else if (!std::strcmp(a, "--spheres")) {
            o.spheres = int_list(v);
        } else if (!std::strcmp(a, "--chains")) {
            o.chains = std::atoi(v);
        } else if (!std::strcmp(a, "--iterations")) {
            o.iterations = std::atoi(v);
        } else if (!std::strcmp(a, "--tol")) {
            o.tol = std::atof(v);
        } else if (!std::strcmp(a, "--tol-max-iter")) {
            o.tol_max_iter = std::atoi(v);
        } else if (!std::strcmp(a, "--rounds")) {
            o.rounds = std::atoi(v);
        } else if (!std::strcmp(a, "--steps")) {
            o.steps = std::atoi(v);
        } else if (!std::strcmp(a, "--settle")) {
            o.settle = std::atof(v);
        } else if (!std::strcmp(a, "--threads")) {
            o.threads = int_list(v);
        } else if (!std::strcmp(a, "--tol-threads")) {
            o.tol_threads = int_list(v);
        } else if (!std::strcmp(a, "--solvers")) {
            o.solvers = split(v);
        } else if (!std::strcmp(a, "--tol-max-size")) {
            o.tol_max_size = std::atoi(v);
        } else if (!std::strcmp(a, "--tol-solvers")) {
            o.tol_solvers = split(v);
        } else if (!std::strcmp(a, "--out")) {
            o.out = v;
        } else {
            return usage(argv[0]);
        }
    }
    bool ok = o.chains >= 1 && o.iterations >= 1 && o.tol_max_iter >= 1 &&
              o.rounds >= 1 && o.steps >= 1 && o.settle >= 0 && o.tol > 0 &&
              !o.threads.empty() && !o.solvers.empty() &&
              (!o.with_tol || !o.tol_solvers.empty());
    for (int n : o.spheres) {
        ok = ok && n >= 1;
    }
    for (int t : o.threads) {
        ok = ok && t >= 1;
    }
    for (int t : o.tol_threads) {
        ok = ok && t >= 1;
    }
    if (!ok) {
        std::fprintf(stderr, "rfbench_bullet: counts must be >= 1, tol > 0, "
                             "settle >= 0\n");
        return 2;
    }
    std::vector<std::string> all = o.solvers;
    all.insert(all.end(), o.tol_solvers.begin(), o.tol_solvers.end());
    for (const std::string &s : all) {
        rf_solver_kind k;
        if (!solver_kind(s, &k)) {
            std::fprintf(stderr, "rfbench_bullet: unknown solver %s\n",
                         s.c_str());
            return 2;
        }
    }
    for (const std::string &s : o.scenes) {
        if (s != "pile" && s != "wall" && s != "chain") {
            std::fprintf(stderr, "rfbench_bullet: unknown scene %s\n",
                         s.c_str());
            return 2;
        }
    }
    std::printf("rfbench_bullet (%s): stock SI vs cone solver, %d iterations "
                "and tol %g (max %d), %d rounds x %d steps, times in ms\n",
                o.quick ? "quick" : "full", o.iterations, o.tol, o.tol_max_iter,
                o.rounds, o.steps);

    o.load_start = load_average();
    std::vector<SceneResult> results;
    for (const std::string &name : o.scenes) {
        std::vector<int> sizes =
            name == "pile" ? o.spheres : std::vector<int>{0};
        for (int n : sizes) {
            std::unique_ptr<Scene> s(new Scene);
            if (name == "pile") {
                build_pile(*s, n);
            } else if (name == "wall") {
                build_wall(*s, 10, 10);
            } else {
                build_chain(*s, o.chains, 20);
            }
            results.push_back(run_scene(*s, o));
        }
    }

    o.load_end = load_average();
    std::printf("load average %.2f at the start, %.2f at the end (%u "
                "hardware threads)\n",
                o.load_start, o.load_end, std::thread::hardware_concurrency());
    const std::vector<TargetCheck> cs = check_targets(results);
    // figures against their goals: a benchmark reports, the tests judge
    std::printf("the piles' goal (cone at %d iterations against stock, 5k "
                "and 20k spheres):\n",
                o.iterations);
    for (const TargetCheck &c : cs) {
        if (c.measured) {
            std::printf("  %5d spheres %d thread%s: best %s %.3fx stock's step "
                        "(goal: at most %.1fx, %s)\n",
                        c.spheres, c.threads, c.threads > 1 ? "s" : " ",
                        c.best.c_str(), c.best_ratio, c.limit,
                        c.best_ratio <= c.limit ? "within it" : "above it");
        } else {
            std::printf("  %5d spheres %d thread%s: not measured\n", c.spheres,
                        c.threads, c.threads > 1 ? "s" : " ");
        }
    }
    if (!write_json(o.out, o, results, cs)) {
        return 1;
    }
    std::printf("wrote %s\n", o.out);
    return 0;
}
