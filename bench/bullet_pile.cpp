// rfbench_bullet: a settled pile of spheres in a Bullet world, stepped by
// the stock solver (btSequentialImpulseConstraintSolver with its rolling
// and spinning rows) and by the cone solver at the same iteration count,
// interleaved on the same world; ms per step, medians, ratios; JSON out.
//
//   rfbench_bullet [--quick] [--spheres N] [--iterations K] [--rounds R]
//                  [--steps S] [--threads 1,2] [--solvers gs,apgd]
//                  [--out FILE]
//
// Scene: N spheres, R = 0.1 m, 1 kg, friction 0.5, rolling 0.01 m,
// spinning 0.005 m, dropped on a grid into a 3 m x 3 m box (ground + four
// static planes) and settled for 3 s with the stock solver; deactivation
// is disabled so every step solves the whole pile.  Each round steps S
// times with stock, then S times with each cone configuration; a step's
// time is the whole stepSimulation (collision detection included, the
// same work for both).  The machine is shared: compare medians.
#include <rollfric/rollfric_bullet.h>

#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

double now()
{
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch())
        .count();
}

double median(std::vector<double> v)
{
    if (v.empty()) {
        return 0;
    }
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::vector<std::string> split(const char *s)
{
    std::vector<std::string> out;
    std::string cur;
    for (const char *c = s;; ++c) {
        if (*c == ',' || *c == '\0') {
            if (!cur.empty()) {
                out.push_back(cur);
            }
            cur.clear();
            if (*c == '\0') {
                break;
            }
        } else {
            cur += *c;
        }
    }
    return out;
}

struct Pile {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
    btSphereShape sphere{0.1};
    std::vector<std::unique_ptr<btCollisionShape>> planes;
    std::vector<std::unique_ptr<btRigidBody>> bodies;
    std::vector<std::unique_ptr<btMotionState>> states;

    explicit Pile(int n)
    {
        world.setGravity(btVector3(0, -9.81, 0));
        const btVector3 normals[5] = {{0, 1, 0}, {1, 0, 0}, {-1, 0, 0},
                                      {0, 0, 1}, {0, 0, -1}};
        for (const btVector3 &nrm : normals) {
            // planes through y = 0 and x, z = +-1.5
            planes.emplace_back(new btStaticPlaneShape(
                nrm, nrm.y() > 0 ? 0 : (btScalar)-1.5));
            bodies.emplace_back(
                new btRigidBody(0, nullptr, planes.back().get()));
            bodies.back()->setFriction(1.0);
            world.addRigidBody(bodies.back().get());
        }
        btVector3 inertia;
        sphere.calculateLocalInertia(1.0, inertia);
        const int per_row = 13; // 13 x 13 per layer, 0.22 m apart
        unsigned seed = 12345;
        for (int i = 0; i < n; ++i) {
            int layer = i / (per_row * per_row), k = i % (per_row * per_row);
            seed = seed * 1103515245u + 12345u;
            double jitter = ((seed >> 16) % 1000) / 1000.0 * 0.02 - 0.01;
            btVector3 pos((btScalar)(-1.32 + 0.22 * (k % per_row) + jitter),
                          (btScalar)(0.15 + 0.22 * layer),
                          (btScalar)(-1.32 + 0.22 * (k / per_row) - jitter));
            states.emplace_back(new btDefaultMotionState(
                btTransform(btQuaternion::getIdentity(), pos)));
            btRigidBody::btRigidBodyConstructionInfo ci(1.0, states.back().get(),
                                                        &sphere, inertia);
            bodies.emplace_back(new btRigidBody(ci));
            btRigidBody *b = bodies.back().get();
            b->setFriction(0.5);
            b->setRollingFriction(0.01);
            b->setSpinningFriction(0.005);
            b->setActivationState(DISABLE_DEACTIVATION);
            world.addRigidBody(b);
        }
    }
    ~Pile()
    {
        for (auto &b : bodies) {
            world.removeRigidBody(b.get());
        }
    }
    void step() { world.stepSimulation(1.0f / 60, 1, 1.0f / 60); }
};

struct Variant {
    std::string name; // "stock" or "<solver>-<threads>t"
    rf_solver_kind solver;
    int threads;
    std::vector<double> ms;
    std::vector<double> plugin_ms;
    std::vector<double> residual;
};

} // namespace

int main(int argc, char **argv)
{
    int n = 5000, iterations = 10, rounds = 5, steps = 20;
    std::vector<int> threads = {1, 2};
    std::vector<std::string> solvers = {"gs", "gs_colored", "apgd"};
    const char *out = "bench/results/rfbench-bullet.json";
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!std::strcmp(a, "--quick")) {
            n = 500;
            rounds = 2;
            steps = 5;
        } else if (!std::strcmp(a, "--spheres") && v) {
            n = std::atoi(v), ++i;
        } else if (!std::strcmp(a, "--iterations") && v) {
            iterations = std::atoi(v), ++i;
        } else if (!std::strcmp(a, "--rounds") && v) {
            rounds = std::atoi(v), ++i;
        } else if (!std::strcmp(a, "--steps") && v) {
            steps = std::atoi(v), ++i;
        } else if (!std::strcmp(a, "--threads") && v) {
            threads.clear();
            for (auto &t : split(v)) {
                threads.push_back(std::atoi(t.c_str()));
            }
            ++i;
        } else if (!std::strcmp(a, "--solvers") && v) {
            solvers = split(v), ++i;
        } else if (!std::strcmp(a, "--out") && v) {
            out = v, ++i;
        } else {
            std::fprintf(stderr,
                         "usage: %s [--quick] [--spheres N] [--iterations K] "
                         "[--rounds R] [--steps S] [--threads 1,2] "
                         "[--solvers gs,gs_colored,apgd,jacobi] [--out "
                         "FILE]\n",
                         argv[0]);
            return 2;
        }
    }
    if (n < 1 || iterations < 1 || rounds < 1 || steps < 1) {
        std::fprintf(stderr, "rfbench_bullet: counts must be >= 1\n");
        return 2;
    }

    std::vector<Variant> variants;
    variants.push_back({"stock", RF_SOLVER_GS, 1, {}, {}, {}});
    for (const std::string &s : solvers) {
        rf_solver_kind k;
        if (s == "gs") {
            k = RF_SOLVER_GS;
        } else if (s == "gs_colored") {
            k = RF_SOLVER_GS_COLORED;
        } else if (s == "apgd") {
            k = RF_SOLVER_APGD;
        } else if (s == "jacobi") {
            k = RF_SOLVER_JACOBI;
        } else {
            std::fprintf(stderr, "rfbench_bullet: unknown solver %s\n",
                         s.c_str());
            return 2;
        }
        for (int t : threads) {
            if (k == RF_SOLVER_GS && t > 1) {
                continue; // sequential by construction
            }
            variants.push_back(
                {s + "-" + std::to_string(t) + "t", k, t, {}, {}, {}});
        }
    }

    Pile pile(n);
    pile.world.getSolverInfo().m_numIterations = iterations;
    const double t_settle = now();
    for (int i = 0; i < 180; ++i) {
        pile.step();
    }
    std::printf("settled %d spheres in %.1f s (3 s simulated, stock)\n", n,
                now() - t_settle);

    rf_config cfg;
    rf_config_default(&cfg);
    cfg.max_iter = iterations;
    cfg.tol = 0; // exactly `iterations`, like stock
    rf_plugin *p = rf_bullet_attach(&pile.world, &cfg);
    if (p == nullptr) {
        return 1;
    }
    int contacts = 0;
    for (int r = 0; r < rounds; ++r) {
        for (Variant &v : variants) {
            const bool stock = v.name == "stock";
            rf_bullet_set_mode(p, stock ? RF_BULLET_STOCK : RF_BULLET_CONE);
            cfg.solver = v.solver;
            cfg.threads = v.threads;
            rf_bullet_set_config(p, &cfg, nullptr);
            pile.step(); // warm-up step (mode switch: cold caches)
            for (int s = 0; s < steps; ++s) {
                double t0 = now();
                pile.step();
                v.ms.push_back(1e3 * (now() - t0));
                if (!stock) {
                    rf_stats st;
                    rf_bullet_stats(p, &st);
                    v.plugin_ms.push_back(1e3 * st.seconds);
                    v.residual.push_back(st.residual);
                    contacts = st.contacts;
                }
            }
        }
    }
    rf_bullet_detach(p);

    const double stock_ms = median(variants[0].ms);
    std::printf("%-16s %10s %10s %10s %12s\n", "variant", "ms/step",
                "vs stock", "plugin ms", "residual");
    for (const Variant &v : variants) {
        std::printf("%-16s %10.3f %10.3f %10.3f %12.2e\n", v.name.c_str(),
                    median(v.ms), median(v.ms) / stock_ms,
                    median(v.plugin_ms), median(v.residual));
    }
    FILE *f = std::fopen(out, "w");
    if (f == nullptr) {
        std::fprintf(stderr, "rfbench_bullet: cannot write %s\n", out);
        return 1;
    }
    std::fprintf(f,
                 "{\n  \"benchmark\": \"rfbench_bullet\",\n  \"spheres\": %d,\n"
                 "  \"contacts\": %d,\n  \"iterations\": %d,\n  \"rounds\": "
                 "%d,\n  \"steps_per_round\": %d,\n  \"stock_ms_per_step\": "
                 "%.4f,\n  \"variants\": [\n",
                 n, contacts, iterations, rounds, steps, stock_ms);
    for (size_t i = 0; i < variants.size(); ++i) {
        const Variant &v = variants[i];
        std::fprintf(f,
                     "    {\"name\": \"%s\", \"threads\": %d, "
                     "\"ms_per_step_median\": %.4f, \"ratio_to_stock\": "
                     "%.4f, \"plugin_ms_median\": %.4f, "
                     "\"residual_median\": %.3e}%s\n",
                     v.name.c_str(), v.threads, median(v.ms),
                     median(v.ms) / stock_ms, median(v.plugin_ms),
                     median(v.residual), i + 1 < variants.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
    std::printf("wrote %s\n", out);
    return 0;
}
