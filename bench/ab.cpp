// rfbench_ab: two or more builds of librollfric compared in one process,
// for changes worth a few percent on a machine whose speed drifts by 15%
// from one run to the next (docs/performance.md, "Measuring a change").
//
//   rfbench_ab [--scenes a,b] [--quick] [--steps N] [--reps R]
//              [--threads T] [--rolling R] [--same] [--out FILE]
//              LIB_A LIB_B ...
//   rfbench_ab --wall NX,NY,NZ [--rounds R] [--solves K] [--out FILE]
//              LIB_A LIB_B ...
//
// Each LIB is a path to a librollfric.so (a copy per build: the loader
// keeps one copy per file), opened with dlopen(RTLD_LOCAL), so every
// build runs in this process with its own code and its own state.
//
// Scene mode (default: the pyramid scene, full size): per rep, one world
// of the scene per library (rf_bullet_attach with the defaults, or T
// threads) and one stock world, stepped interleaved step by step (the
// order rotated each step), each world's stepSimulation time summed.
// Reported per library: each rep's total and its ratio to stock's and to
// the first library's; the median over reps of the ratio to the first
// library is the A/B figure.  The same for the time in Bullet's solve
// zone alone (solveConstraints, rfbench::PhaseClock): the solvers' own
// cost, without collision detection's share of the machine's noise.  And
// a hash of every object's transform and velocity after the first rep:
// builds that should give the same bits must give the same hash (exit
// status 3 if --same is given and a library's differs from the first's).
// The hash reads Bullet's state (float in Debian's build), into which the
// core's doubles are rounded each step: necessary for the same bits, not
// proof of them (a difference in the last bits of a double may round
// away; it would show in a later step's state, or in --wall's impulse
// sum, which is the core's own doubles).  --rolling
// R sets every object's rolling and spinning friction to R (m) in every world,
// stock's too: the contacts then take the row form's rolling and spin parts
// (the product's own case) instead of the wide kernel.
//
// Wall mode (--wall): the SI solve alone (De Saxce model, 5 sweeps, one
// thread, warm-started) on a wall of NX x NY x NZ unit boxes with four
// points per touching pair (as tests build it), for each library; rounds
// alternate the libraries, each round takes the fastest of K solves; the
// median over rounds of the ratio to the first library is the figure.
// The sum of each library's impulses is printed and written: builds that
// should give the same bits must give the same sum (exit status 3 if
// --same is given and they differ).
//
// JSON to FILE (default rfbench-ab.json).  Exit status 0, 1 on a usage
// or library error, 3 on --same with differing results.
#include "bench_util.hpp"
#include "bullet_scenes.hpp"

#include <rollfric/rollfric.h>
#include <rollfric/rollfric_bullet.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <memory>
#include <string>
#include <vector>

namespace {

using rfbench::median;
using rfbench::now;

// s as a JSON string's contents (quotes and backslashes escaped; control
// characters dropped)
std::string json_text(const std::string &s)
{
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
        }
        if ((unsigned char)c >= 0x20) {
            out += c;
        }
    }
    return out;
}

// FNV-1a over the bytes of every collision object's transform and, for a
// rigid body, its velocities: equal for worlds that ran the same bits.
unsigned long long state_hash(const rfscenes::World &w)
{
    unsigned long long h = 1469598103934665603ull;
    auto add = [&h](const btVector3 &v) {
        for (int c = 0; c < 3; ++c) {
            const btScalar x = v[c];
            unsigned char b[sizeof x];
            std::memcpy(b, &x, sizeof x);
            for (unsigned char byte : b) {
                h = (h ^ byte) * 1099511628211ull;
            }
        }
    };
    const btCollisionObjectArray &objs = w.world.getCollisionObjectArray();
    for (int q = 0; q < objs.size(); ++q) {
        const btTransform &t = objs[q]->getWorldTransform();
        add(t.getOrigin());
        for (int r = 0; r < 3; ++r) {
            add(t.getBasis()[r]);
        }
        if (const btRigidBody *rb = btRigidBody::upcast(objs[q])) {
            add(rb->getLinearVelocity());
            add(rb->getAngularVelocity());
        }
    }
    return h;
}

// The functions used from each library, by name (the C API's exported
// *_sized entry points: the inline wrappers would bind to this program's
// link, and this program links no librollfric).
struct Lib {
    std::string path;
    void *handle = nullptr;
    rf_status (*problem_create)(rf_problem **, rf_error *) = nullptr;
    void (*problem_destroy)(rf_problem *) = nullptr;
    rf_status (*begin_bodies)(rf_problem *, int, int, rf_error *) = nullptr;
    rf_status (*set_body)(rf_problem *, int, const rf_body_desc *,
                          rf_error *) = nullptr;
    rf_status (*set_contact)(rf_problem *, int, const rf_contact_desc *,
                             rf_error *) = nullptr;
    rf_status (*config_default)(rf_config *, size_t) = nullptr;
    rf_status (*solve)(rf_problem *, const rf_config *, size_t, double *,
                       rf_stats *, size_t, rf_error *) = nullptr;
    rf_status (*bullet_config_default)(rf_config *, size_t) = nullptr;
    rf_plugin *(*attach)(btDiscreteDynamicsWorld *, const rf_config *, size_t,
                         int, rf_error *) = nullptr;
    void (*detach)(rf_plugin *) = nullptr;

    template <class F> bool sym(F &f, const char *name)
    {
        f = reinterpret_cast<F>(dlsym(handle, name));
        if (f == nullptr) {
            std::fprintf(stderr, "rfbench_ab: %s: no symbol %s\n", path.c_str(),
                         name);
        }
        return f != nullptr;
    }

    bool open(const std::string &p)
    {
        path = p;
        handle = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle == nullptr) {
            std::fprintf(stderr, "rfbench_ab: %s\n", dlerror());
            return false;
        }
        return sym(problem_create, "rf_problem_create") &&
               sym(problem_destroy, "rf_problem_destroy") &&
               sym(begin_bodies, "rf_problem_begin_bodies") &&
               sym(set_body, "rf_problem_set_body") &&
               sym(set_contact, "rf_problem_set_contact") &&
               sym(config_default, "rf_config_default_sized") &&
               sym(solve, "rf_solve_sized") &&
               sym(bullet_config_default, "rf_bullet_config_default_sized") &&
               sym(attach, "rf_bullet_attach_checked") &&
               sym(detach, "rf_bullet_detach");
    }
};

struct Options {
    std::vector<std::string> scenes{"pyramid"};
    bool quick = false;
    int steps = 0; // 0: the scene's own step count
    int reps = 3;
    int threads = 0;
    double rolling = -1.0; // --rolling: every object's rolling friction
    int wall[3] = {0, 0, 0};
    int rounds = 20;
    int solves = 3;
    bool same = false;
    std::string out = "rfbench-ab.json";
    std::vector<std::string> libs;
};

// ---- wall mode ------------------------------------------------------------

// Box (i, j, k) of the wall, its contact pairs (with the box below, or the
// ground, and with its neighbours along x and z) and each pair's normal
// axis.
struct Wall {
    int nx, ny, nz, nbody = 0;
    std::vector<int> a, b, axis;

    Wall(int x, int y, int z) : nx(x), ny(y), nz(z), nbody(x * y * z)
    {
        for (int k = 0; k < nz; ++k) {
            for (int j = 0; j < ny; ++j) {
                for (int i = 0; i < nx; ++i) {
                    pair(id(i, j, k), j == 0 ? RF_WORLD : id(i, j - 1, k), 1);
                    if (i > 0) {
                        pair(id(i, j, k), id(i - 1, j, k), 0);
                    }
                    if (k > 0) {
                        pair(id(i, j, k), id(i, j, k - 1), 2);
                    }
                }
            }
        }
    }
    int id(int i, int j, int k) const
    {
        return (k * ny + j) * nx + i;
    }
    void pair(int p, int q, int d)
    {
        a.push_back(p);
        b.push_back(q);
        axis.push_back(d);
    }
    int ncon() const
    {
        return 4 * (int)a.size();
    }
};

// The wall's problem in lib's build; false with a message on an error.
bool fill_wall(const Lib &lib, const Wall &w, rf_problem *p)
{
    rf_error err;
    const double h = 1.0 / 60.0;
    if (lib.begin_bodies(p, w.nbody, w.ncon(), &err) != RF_OK) {
        std::fprintf(stderr, "rfbench_ab: %s\n", err.message);
        return false;
    }
    for (int i = 0; i < w.nbody; ++i) {
        rf_body_desc d;
        std::memset(&d, 0, sizeof d);
        d.flags = RF_BODY_DYNAMIC;
        d.inv_mass = 1.0; // unit cubes of 1 kg: I = 1/6 kg m^2
        d.inv_inertia[0] = d.inv_inertia[4] = d.inv_inertia[8] = 6.0;
        d.v[1] = -9.81 * h; // a step of gravity, and a little disorder
        d.v[0] = 1e-3 * ((i * 7919) % 13 - 6);
        d.w[2] = 1e-3 * ((i * 104729) % 11 - 5);
        if (lib.set_body(p, i, &d, &err) != RF_OK) {
            std::fprintf(stderr, "rfbench_ab: %s\n", err.message);
            return false;
        }
    }
    int c = 0;
    for (size_t m = 0; m < w.a.size(); ++m) {
        for (int q = 0; q < 4; ++q, ++c) { // the face's four corners
            rf_contact_desc x;
            std::memset(&x, 0, sizeof x);
            x.body_a = w.a[m];
            x.body_b = w.b[m];
            const int d = w.axis[m];
            x.n[d] = 1.0;
            x.t1[(d + 1) % 3] = 1.0;
            x.t2[(d + 2) % 3] = 1.0;
            const double s1 = (q & 1) ? 0.5 : -0.5, s2 = (q & 2) ? 0.5 : -0.5;
            for (int e = 0; e < 3; ++e) {
                x.r_a[e] = -0.5 * x.n[e] + s1 * x.t1[e] + s2 * x.t2[e];
                x.r_b[e] = x.body_b == RF_WORLD
                               ? x.r_a[e]
                               : 0.5 * x.n[e] + s1 * x.t1[e] + s2 * x.t2[e];
            }
            x.mu = 0.5;
            x.bias[0] = -0.2 * 0.001 * ((c * 31) % 7) / h; // some recovery
            if (lib.set_contact(p, c, &x, &err) != RF_OK) {
                std::fprintf(stderr, "rfbench_ab: %s\n", err.message);
                return false;
            }
        }
    }
    return true;
}

int run_wall(const Options &o, std::vector<Lib> &libs, FILE *js)
{
    const Wall w(o.wall[0], o.wall[1], o.wall[2]);
    const size_t nl = libs.size(), ndof = 6 * (size_t)w.ncon();
    std::vector<rf_problem *> prob(nl, nullptr);
    std::vector<rf_config> cfg(nl);
    std::vector<double> g(ndof);
    rf_error err;
    for (size_t l = 0; l < nl; ++l) {
        if (libs[l].problem_create(&prob[l], &err) != RF_OK ||
            !fill_wall(libs[l], w, prob[l])) {
            return 1;
        }
        libs[l].config_default(&cfg[l], sizeof(rf_config));
        cfg[l].solver = RF_SOLVER_SI;
        cfg[l].model = RF_MODEL_DESAXCE;
        cfg[l].max_iter = 5;
        cfg[l].tol = 0.0;
        cfg[l].threads = 1;
        cfg[l].residual = 0;
    }
    // the same warm start for every library: three solves of the first
    std::vector<double> start(ndof, 0.0);
    rf_stats st;
    for (int k = 0; k < 3; ++k) {
        if (libs[0].solve(prob[0], &cfg[0], sizeof(rf_config), start.data(),
                          &st, sizeof st, &err) != RF_OK) {
            std::fprintf(stderr, "rfbench_ab: %s\n", err.message);
            return 1;
        }
    }
    std::vector<double> sum(nl, 0.0);
    std::vector<std::vector<double>> last(nl); // each library's impulses
    std::vector<std::vector<double>> best(nl, std::vector<double>(o.rounds));
    for (int r = 0; r < o.rounds; ++r) {
        for (size_t q = 0; q < nl; ++q) {
            // the order rotated each round: the library after another one
            // finds the caches holding the other's data
            const size_t l = (q + (size_t)r) % nl;
            double fastest = 1e300;
            for (int k = 0; k < o.solves; ++k) {
                g = start;
                const double t0 = now();
                if (libs[l].solve(prob[l], &cfg[l], sizeof(rf_config), g.data(),
                                  &st, sizeof st, &err) != RF_OK) {
                    std::fprintf(stderr, "rfbench_ab: %s\n", err.message);
                    return 1;
                }
                fastest = std::min(fastest, now() - t0);
            }
            best[l][r] = fastest;
            double s = 0.0;
            for (double x : g) {
                s += x;
            }
            sum[l] = s;
            last[l] = g;
        }
    }
    int status = 0;
    std::printf("wall %dx%dx%d: %d bodies, %d contacts, SI 5 sweeps, 1 "
                "thread; %d rounds of the fastest of %d solves\n",
                w.nx, w.ny, w.nz, w.nbody, w.ncon(), o.rounds, o.solves);
    std::fprintf(js, "  \"mode\": \"wall\", \"wall\": [%d, %d, %d],\n", w.nx,
                 w.ny, w.nz);
    std::fprintf(js, "  \"contacts\": %d, \"rounds\": %d, \"libs\": [\n",
                 w.ncon(), o.rounds);
    for (size_t l = 0; l < nl; ++l) {
        std::vector<double> ratio;
        for (int r = 0; r < o.rounds; ++r) {
            ratio.push_back(best[l][r] / best[0][r]);
        }
        const double fastest =
            *std::min_element(best[l].begin(), best[l].end());
        const double med = median(ratio);
        std::printf("  %-40s fastest %8.3f ms  median ratio to the first "
                    "%.4f  impulse sum %.15g\n",
                    libs[l].path.c_str(), fastest * 1e3, med, sum[l]);
        std::fprintf(js,
                     "    {\"lib\": \"%s\", \"ms_fastest\": %.6f, "
                     "\"ratio_to_first_median\": %.6f, \"impulse_sum\": "
                     "%.17g}%s\n",
                     json_text(libs[l].path).c_str(), fastest * 1e3, med,
                     sum[l], l + 1 < nl ? "," : "");
        // every impulse, bit for bit (the sum is what is printed)
        if (o.same && std::memcmp(last[l].data(), last[0].data(),
                                  ndof * sizeof(double)) != 0) {
            std::fprintf(stderr,
                         "rfbench_ab: %s gives another result than %s\n",
                         libs[l].path.c_str(), libs[0].path.c_str());
            status = 3;
        }
    }
    std::fprintf(js, "  ]\n");
    for (size_t l = 0; l < nl; ++l) {
        libs[l].problem_destroy(prob[l]);
    }
    return status;
}

// ---- scene mode -----------------------------------------------------------

int run_scenes(const Options &o, std::vector<Lib> &libs, FILE *js)
{
    const size_t nl = libs.size();
    bool same = true; // every library's state hash the first's (--same)
    std::fprintf(js,
                 "  \"mode\": \"scenes\", \"quick\": %s, \"reps\": %d, "
                 "\"threads\": %d, \"rolling\": %g,\n  \"scenes\": [\n",
                 o.quick ? "true" : "false", o.reps, o.threads,
                 o.rolling >= 0.0 ? o.rolling : 0.0);
    for (size_t si = 0; si < o.scenes.size(); ++si) {
        const std::string &name = o.scenes[si];
        // seconds per rep: [0] stock, [1 + l] library l; the same in the
        // solve zone; each world's state hash after the first rep
        std::vector<std::vector<double>> t(nl + 1), ts(nl + 1);
        std::vector<unsigned long long> hash(nl + 1, 0);
        int steps = o.steps;
        for (int rep = 0; rep < o.reps; ++rep) {
            std::vector<std::unique_ptr<rfscenes::World>> w(nl + 1);
            std::vector<rf_plugin *> pl(nl + 1, nullptr);
            for (size_t k = 0; k <= nl; ++k) {
                w[k].reset(new rfscenes::World);
                if (!rfscenes::build_scene(*w[k], name,
                                           o.quick ? rfscenes::Size::quick
                                                   : rfscenes::Size::full)) {
                    std::fprintf(stderr, "rfbench_ab: unknown scene %s\n",
                                 name.c_str());
                    return 1;
                }
                btCollisionObjectArray &objs =
                    w[k]->world.getCollisionObjectArray();
                for (int q = 0; o.rolling >= 0.0 && q < objs.size(); ++q) {
                    objs[q]->setRollingFriction((btScalar)o.rolling);
                    objs[q]->setSpinningFriction((btScalar)o.rolling);
                }
            }
            if (steps <= 0) { // the scene's own count (kScenes)
                const rfscenes::SceneEntry *e = rfscenes::find_scene(name);
                steps = o.quick ? e->quick_steps : e->full_steps;
            }
            for (size_t l = 0; l < nl; ++l) {
                rf_config cfg;
                libs[l].bullet_config_default(&cfg, sizeof cfg);
                cfg.threads = o.threads;
                rf_error err;
                pl[1 + l] = libs[l].attach(&w[1 + l]->world, &cfg, sizeof cfg,
                                           (int)sizeof(btScalar), &err);
                if (pl[1 + l] == nullptr) {
                    std::fprintf(stderr, "rfbench_ab: %s: %s\n",
                                 libs[l].path.c_str(), err.message);
                    return 1;
                }
            }
            std::vector<double> sec(nl + 1, 0.0), solve(nl + 1, 0.0);
            for (int s = 0; s < steps; ++s) {
                for (size_t k = 0; k <= nl; ++k) {
                    const size_t x = (k + (size_t)s) % (nl + 1);
                    double phase[2];
                    sec[x] += rfbench::PhaseClock::timed([&] { w[x]->step(); },
                                                         phase);
                    solve[x] += phase[rfbench::PhaseClock::kSolve];
                }
            }
            for (size_t k = 0; k <= nl; ++k) {
                t[k].push_back(sec[k]);
                ts[k].push_back(solve[k]);
                if (rep == 0) {
                    hash[k] = state_hash(*w[k]);
                }
            }
            for (size_t l = 0; l < nl; ++l) {
                libs[l].detach(pl[1 + l]);
            }
        }
        std::printf("%s (%s, %d steps, %d reps): seconds per rep, ratio to "
                    "stock, ratio to the first library\n",
                    name.c_str(), o.quick ? "quick" : "full", steps, o.reps);
        std::fprintf(js, "    {\"scene\": \"%s\", \"steps\": %d, \"runs\": [\n",
                     name.c_str(), steps);
        for (size_t k = 0; k <= nl; ++k) {
            const char *who = k == 0 ? "stock" : libs[k - 1].path.c_str();
            std::printf("  %-40s", who);
            std::fprintf(js, "      {\"lib\": \"%s\", \"seconds\": [",
                         json_text(who).c_str());
            for (int r = 0; r < o.reps; ++r) {
                std::printf(" %.3f", t[k][r]);
                std::fprintf(js, "%s%.6f", r ? ", " : "", t[k][r]);
            }
            std::fprintf(js, "]");
            std::fprintf(js, ", \"solve_seconds\": [");
            for (int r = 0; r < o.reps; ++r) {
                std::fprintf(js, "%s%.6f", r ? ", " : "", ts[k][r]);
            }
            std::fprintf(js, "], \"state_hash\": \"%016llx\"", hash[k]);
            if (k > 0) { // medians over reps of the ratios
                std::vector<double> rs, rf, ss, sf;
                // the solve zone's ratios only where it was timed (a
                // Bullet built with BT_NO_PROFILE calls no zone hooks)
                bool timed = true;
                for (int r = 0; r < o.reps; ++r) {
                    rs.push_back(t[k][r] / t[0][r]);
                    rf.push_back(t[k][r] / t[1][r]);
                    timed = timed && ts[0][r] > 0.0 && ts[1][r] > 0.0;
                    ss.push_back(timed ? ts[k][r] / ts[0][r] : 0.0);
                    sf.push_back(timed ? ts[k][r] / ts[1][r] : 0.0);
                }
                std::printf("  stock x %.3f  first x %.4f", median(rs),
                            median(rf));
                if (timed) {
                    std::printf("  solve: stock x %.3f  first x %.4f",
                                median(ss), median(sf));
                }
                std::printf("  state %016llx", hash[k]);
                std::fprintf(js,
                             ", \"ratio_to_stock_median\": %.6f, "
                             "\"ratio_to_first_median\": %.6f",
                             median(rs), median(rf));
                if (timed) {
                    std::fprintf(js,
                                 ", \"solve_ratio_to_stock_median\": %.6f, "
                                 "\"solve_ratio_to_first_median\": %.6f",
                                 median(ss), median(sf));
                } else {
                    std::fprintf(js, ", \"solve_ratio_to_stock_median\": null, "
                                     "\"solve_ratio_to_first_median\": null");
                }
                if (o.same && hash[k] != hash[1]) {
                    same = false;
                }
            }
            std::printf("\n");
            std::fprintf(js, "}%s\n", k < nl ? "," : "");
        }
        std::fprintf(js, "    ]}%s\n", si + 1 < o.scenes.size() ? "," : "");
    }
    std::fprintf(js, "  ]\n");
    if (!same) {
        std::fprintf(stderr, "rfbench_ab: --same: the libraries' worlds "
                             "ended in different states\n");
        return 3;
    }
    return 0;
}

int usage()
{
    std::fprintf(stderr,
                 "usage: rfbench_ab [--scenes a,b] [--quick] [--steps N] "
                 "[--reps R] [--threads T] [--rolling R] [--same] "
                 "[--out FILE] LIB...\n"
                 "       rfbench_ab --wall NX,NY,NZ [--rounds R] [--solves "
                 "K] [--same] [--out FILE] LIB...\n");
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool more = i + 1 < argc;
        if (a == "--scenes" && more) {
            o.scenes = rfbench::split(argv[++i]);
        } else if (a == "--quick") {
            o.quick = true;
        } else if (a == "--same") {
            o.same = true;
        } else if (a == "--steps" && more) {
            o.steps = std::atoi(argv[++i]);
        } else if (a == "--reps" && more) {
            o.reps = std::atoi(argv[++i]);
        } else if (a == "--threads" && more) {
            o.threads = std::atoi(argv[++i]);
        } else if (a == "--rolling" && more) {
            o.rolling = std::atof(argv[++i]);
            if (!(o.rolling >= 0.0)) {
                return usage();
            }
        } else if (a == "--rounds" && more) {
            o.rounds = std::atoi(argv[++i]);
        } else if (a == "--solves" && more) {
            o.solves = std::atoi(argv[++i]);
        } else if (a == "--out" && more) {
            o.out = argv[++i];
        } else if (a == "--wall" && more) {
            const std::vector<std::string> v = rfbench::split(argv[++i]);
            if (v.size() != 3) {
                return usage();
            }
            for (int k = 0; k < 3; ++k) {
                o.wall[k] = std::atoi(v[k].c_str());
            }
        } else if (!a.empty() && a[0] == '-') {
            return usage();
        } else {
            o.libs.push_back(a);
        }
    }
    const bool wall = o.wall[0] > 0;
    if (o.libs.empty() || o.reps < 1 || o.rounds < 1 || o.solves < 1 ||
        o.threads < 0 || (wall && (o.wall[1] < 1 || o.wall[2] < 1))) {
        return usage();
    }
    std::vector<Lib> libs(o.libs.size());
    for (size_t l = 0; l < libs.size(); ++l) {
        if (!libs[l].open(o.libs[l])) {
            return 1;
        }
    }
    FILE *js = std::fopen(o.out.c_str(), "w");
    if (js == nullptr) {
        std::fprintf(stderr, "rfbench_ab: cannot write %s\n", o.out.c_str());
        return 1;
    }
    std::fprintf(js, "{\n");
    rfbench::PhaseClock::install(); // the solve zone's time
    const int status = wall ? run_wall(o, libs, js) : run_scenes(o, libs, js);
    std::fprintf(js, "}\n");
    std::fclose(js);
    std::printf("JSON: %s\n", o.out.c_str());
    return status;
}
