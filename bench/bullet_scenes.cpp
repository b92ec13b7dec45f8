// rfbench_scenes: Bullet's own demo scenes (bench/bullet_scenes.hpp),
// headless, stepped by Bullet's stock solver and by rollfric's cone solver
// in several configurations, with metrics that mean the same for every
// solver: time per step, sleeping, energy, penetration, standing
// structures, joint drift.  JSON out, a table on stdout.
//
//   rfbench_scenes [--quick] [--scenes a,b,c] [--steps N]
//                  [--configs stock,defaults,gs,apgd:10] [--threads 1,2]
//                  [--sleep-runs K] [--perturb S] [--load] [--no-sleep]
//                  [--anchors] [--erp2 E] [--out FILE]
//
//   --quick    the scenes' quick sizes (CI: at most a few hundred bodies);
//              full size (Bullet's counts) otherwise
//   --scenes   any of falling_boxes, pyramid, ragdolls, convex_stack,
//              prim_mesh, convex_mesh, basic_demo, rolling_friction,
//              sphere_pile, small_stacks, small_spheres, mt_stacks,
//              incline, cradle,
//              multiple_boxes, compound_boxes, chain, bridge (default:
//              all); "small": the small-scene set, small_stacks to bridge
//              (a user's first scenes: 50 or fewer contacts, where the
//              fixed cost per step decides the ratio)
//   --steps    steps per world (stepSimulation(1/60, 1, 1/60): one fixed
//              substep per call); default per scene and size, enough for
//              stock Bullet to settle and sleep (bullet_scenes.hpp,
//              kScenes: 180-540 quick, 240-900 full), or 600 (quick 300)
//              where something keeps moving under stock
//   --configs  stock: rf_bullet_attach, then RF_BULLET_STOCK (the world's
//              own btSequentialImpulseConstraintSolver behind the plugin's
//              forwarding, so both pay that);
//              defaults: rf_bullet_attach(world, NULL) as it is;
//              NAME or NAME:K, NAME in si, gs, gs_colored, jacobi, apgd:
//              rf_bullet_config_default with that solver, and with K
//              given exactly K iterations (max_iter = K, tol = 0).  A
//              configuration rf_bullet_set_config rejects is reported
//              (its "error" in the JSON) and not stepped.
//   --threads  rf_config.threads for every cone configuration, each run
//              once per value, labelled NAME@tN (0 = OpenMP's default), e.g.
//              --threads 1,2; without it the configurations keep their
//              threads (the defaults': OpenMP's default, OMP_NUM_THREADS
//              or one per core)
//   --sleep-runs K   K perturbed copies per configuration for the medians
//              of the sleep step, deepest penetration and end kinetic
//              energy (see sleep_runs below); default 0
//   --perturb S  copy k's gravity scaled by 1 + S k; default 1e-3 (until
//              the seventeenth round 1e-5, which leaves the copies' deepest
//              points within 1% of each other: the deepest contact is found
//              while the bodies land, before the copies part; at 1e-3 they
//              spread as far as independent runs, e.g. quick falling boxes
//              80-203 mm over 24 copies)
//   --load     fork a child that spins on one core for the whole run
//              (killed at the end): one core kept busy by another process
//   --no-sleep every body DISABLE_DEACTIVATION, as applications that keep
//              bodies awake set them: a settled scene then keeps being
//              solved, and drift_mean / drift_max show how far it creeps
//   --anchors  every body CF_HAS_FRICTION_ANCHOR: Bullet's friction
//              anchors, which stock and the cone honour alike (docs/
//              bullet.md), the remedy for that creep
//   --erp2     every world's m_erp2 (Bullet's contact position correction
//              per step, 0.2 by default; 0 to 1): what feeds the leaning
//              columns' sway while they are kept awake (docs/bullet-
//              scenes.md, "Kept awake")
//   --out      JSON file (default bench/results/rfbench-scenes.json)
//
// Scenes (bullet_scenes.hpp has the Bullet source facts each follows):
//   falling_boxes     BenchmarkDemo 1: 8x8x47 = 3008 cubes (quick 100)
//   pyramid           BenchmarkDemo 2, the "1000 stack": pyramid 12, three
//                     stepped walls 12, a tower of 8 rings of 24: 1076 boxes
//                     (quick: 6, 5, 4x12: 184)
//   ragdolls          BenchmarkDemo 3: 136 ragdolls of 11 capsules and 10
//                     hinge / cone-twist joints (quick 10)
//   convex_stack      BenchmarkDemo 4: 8x8x15 barrel hulls (quick 96)
//   prim_mesh         BenchmarkDemo 5: 1000 boxes, spheres, capsules on a
//                     triangle-mesh terrain (quick 100)
//   convex_mesh       BenchmarkDemo 6: 1000 barrel hulls on it (quick 100)
//   basic_demo        BasicDemo: 5x5x5 boxes dropped on a ground box
//   rolling_friction  RollingFrictionDemo: 125 bodies of 10 shapes on a ramp
//   sphere_pile       rfbench_bullet's settled pile, sleeping enabled: 2000
//                     spheres (quick 300)
//   small_stacks      not a Bullet demo: 4 columns of 5 boxes built 1 cm
//                     apart on BasicDemo's ground, a user's first scene
//   small_spheres     the same with spheres, which topple and roll apart
//   mt_stacks         MultiThreadedDemo: a stack of 8 walls of 120 boxes
//                     (quick: 2 of 36) on a kinematic ground
//   incline, cradle, multiple_boxes, compound_boxes, chain, bridge
//                     Bullet's ExtendedTutorials InclinedPlane,
//                     NewtonsCradle, MultipleBoxes, CompoundBoxes, Chain and
//                     Bridge, as rfbench_tutorials runs them
// BenchmarkDemo scenes run at its 5 iterations, the others at the world's
// default 10; gravity, friction and damping are the demos'; sleeping is on.
// Bullet's "Taru" hull and landscape mesh are generated stand-ins.
//
// Runs: for each scene, one world per configuration, built identically;
// the worlds are stepped interleaved (world 1, world 2, ..., then the next
// step), so load on the machine falls on all alike, and the order rotated
// each step (step k starts with world k mod n): a world stepped right
// after another finds the caches as that one left them, which favoured
// the later worlds by 1-2% (rfbench_ab, which rotates too, measured the
// bias between two copies of one library).
//
// Metrics, per scene and configuration:
//   ms_mean / ms_median / ms_p90 / ms_max   wall time of stepSimulation
//   (collision
//        detection, solve, integration: everything); max_step: the step
//        that took ms_max (1 = the first); ms_first: the first step's
//        (the plugin's set-up and first allocations), the median over
//        five fresh worlds, each built alone and stepped (first_steps),
//        ratio_first its
//        ratio to stock's; page_faults: minor page faults
//        during the world's steps (getrusage, counted around each step):
//        a fresh page's first touch, 12 us each in a virtual machine,
//        which made the cone's slowest step the one where its arrays grew
//        until the twenty-fourth round (docs/performance.md); ratio_mean /
//        ratio_median = the cone configuration's over stock's, same run
//        (on a scene that sleeps the median step may be a sleeping step
//        in one world and not in the other: 0.08x on BasicDemo);
//        ratio_awake = its time over stock's summed over the steps after
//        which both worlds had a body awake (awake_steps of them): the
//        solvers' cost where both still work;
//   team_steps   of the cone steps (cone_steps), those that ran on more
//        than one thread (rf_bullet_timing.threads): with threads 0 the
//        shim's adaptive choice (docs/bullet.md, "Threads");
//   solve_ms_mean, collide_ms_mean, solve_ratio_mean   the step's time in
//        Bullet's own "solveConstraints" and
//        "performDiscreteCollisionDetection" profile zones (PhaseClock,
//        bench_util.hpp), and the solve phase's ratio to stock's: the
//        solvers' own cost, apart from collision detection, which costs
//        what the scene's state makes it (a pile that settled differently
//        has other pairs to test);
//   sleep_step   first step after which every dynamic body is
//        ISLAND_SLEEPING (-1: never); awake_end: bodies awake at the end;
//   sleep_runs, sleep_median   with --sleep-runs K: the sleep step of K
//        more copies with gravity scaled by 1 + S k (k = 1..K, S =
//        --perturb, 1e-3), each stepped alone until it sleeps, and their
//        median (the lower middle; a copy that never slept counts as
//        latest): sleeping is chaotic (one body's brief wake-up restarts
//        its island's 2 s timer), and one run's step moves by up to a
//        hundred either way;
//   pen_runs, pen_median, ke_runs, ke_median   the same copies' deepest
//        manifold point and kinetic energy at the end (0 once asleep),
//        and their medians: a fast body's first contact is found wherever
//        it happens to be, up to a step's travel deep, and a scene still
//        moving at the end has whatever is still falling;
//   ke_end, ke_max   kinetic energy, sum of 1/2 m v^2 + 1/2 w.I w, J;
//   energy_rise  with E = kinetic + gravity's potential (-m g.x) after
//        each step (and before the first), max over t of E(t) - min over
//        s <= t of E(s), J: the largest energy gained from nowhere (gravity
//        is conservative, and no scene has motors or restitution);
//   pen_max, pen_mean_max, pen_mean_end   depth of manifold points with
//        getDistance() < 0 after each step: the deepest over the run, the
//        run's mean of the per-step deepest, the mean depth at the end;
//   contacts_end  manifold points within the processing threshold;
//   drift_mean, drift_max   the dynamic bodies' displacement across
//        gravity (m) from the middle step (drift_from, steps / 2) to the
//        end, their mean and the largest: how far a settled scene creeps
//        while it is kept awake (--no-sleep; asleep, a body stays put).
//        An exact solve of a resting stack leaves it where it is; a few
//        sweeps of any of these solvers leave each step's sticking
//        friction a little short, and the bodies walk;
//   structures   per stack, wall, tower, pyramid, pile: top_displacement
//        (m, of the body built highest) and fallen (moved more than half
//        its smallest dimension from where it was built, or tilted more
//        than 30 deg; spheres only by the first) at the end; fallen = the
//        scene's sum;
//   joint_err_end, joint_err_max   largest distance between a joint's two
//        world pivots (hinge, cone-twist, point-to-point), m, after each
//        step (joint_err_start, per scene: as built; Bullet's ragdoll is
//        built with its pivots up to 0.35 m apart, which the first steps
//        close: energy_rise includes that);
//   iterations, residual, rows   rf_bullet_stats of the last step (cone).
#include "bullet_scenes.hpp"

#include <rollfric/rollfric_bullet.h>

#include "bench_util.hpp"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using rfscenes::World;

using rfbench::median;
using rfbench::now;
using rfbench::split;

// The process's minor page faults so far (getrusage).
long minor_faults()
{
    struct rusage u;
    return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_minflt : 0;
}

bool parse_int(const std::string &s, int *out)
{
    char *end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || v < 0 || v > 1000000) {
        return false;
    }
    *out = (int)v;
    return true;
}

// A whole argument as a finite number in [lo, hi] (lo excluded when
// open_lo), into *out.
bool parse_real(const char *s, double lo, double hi, bool open_lo, double *out)
{
    char *end = nullptr;
    const double v = std::strtod(s, &end);
    if (end == s || *end != '\0' || !std::isfinite(v) || v < lo ||
        (open_lo && v == lo) || v > hi) {
        return false;
    }
    *out = v;
    return true;
}

struct SolverName {
    const char *name;
    rf_solver_kind kind;
};
const SolverName kSolvers[] = {{"si", RF_SOLVER_SI},
                               {"gs", RF_SOLVER_GS},
                               {"gs_colored", RF_SOLVER_GS_COLORED},
                               {"jacobi", RF_SOLVER_JACOBI},
                               {"apgd", RF_SOLVER_APGD}};

// One --configs entry, expanded over --threads.
struct ConfigSpec {
    std::string label;   // as printed: "stock", "gs:10@t1"
    std::string solver;  // "stock", "stock2f", "defaults" or a solver name
    int iterations = -1; // K of NAME:K, -1: the defaults'
    int threads = -1;    // rf_config.threads, -1: the defaults'
    rf_solver_kind kind = RF_SOLVER_SI;
    // Bullet's own solver (stock, or stock2f: with two friction rows)
    bool stock() const
    {
        return solver == "stock" || solver == "stock2f";
    }
};

bool parse_configs(const std::vector<std::string> &names,
                   const std::vector<int> &threads,
                   std::vector<ConfigSpec> *out)
{
    for (const std::string &n : names) {
        ConfigSpec c;
        const size_t colon = n.find(':');
        c.solver = n.substr(0, colon);
        if (colon != std::string::npos &&
            (!parse_int(n.substr(colon + 1), &c.iterations) ||
             c.iterations < 1)) {
            std::fprintf(stderr, "rfbench_scenes: bad iteration count in %s\n",
                         n.c_str());
            return false;
        }
        if (c.stock()) {
            if (colon != std::string::npos) {
                std::fprintf(stderr, "rfbench_scenes: %s takes no :K\n",
                             c.solver.c_str());
                return false;
            }
            c.label = c.solver;
            out->push_back(c);
            continue;
        }
        if (c.solver == "defaults" && colon != std::string::npos) {
            std::fprintf(stderr, "rfbench_scenes: defaults takes no :K\n");
            return false;
        }
        if (c.solver != "defaults") {
            bool known = false;
            for (const SolverName &s : kSolvers) {
                if (c.solver == s.name) {
                    c.kind = s.kind;
                    known = true;
                }
            }
            if (!known) {
                std::fprintf(stderr, "rfbench_scenes: unknown config %s\n",
                             n.c_str());
                return false;
            }
        }
        if (threads.empty()) {
            c.label = n; // threads as the configuration has them
            out->push_back(c);
        }
        for (int t : threads) {
            ConfigSpec ct = c;
            ct.threads = t;
            ct.label = n + "@t" + std::to_string(t);
            out->push_back(ct);
        }
    }
    return true;
}

// One world stepped by one configuration, and what was measured on it.
struct Run {
    ConfigSpec spec;
    std::unique_ptr<World> world;
    rf_plugin *plugin = nullptr;
    std::string error; // set: not stepped
    rf_config config{};
    std::vector<double> ms;
    // the first step's wall time, ms (first_steps: a median over fresh
    // worlds; -1: not measured)
    double first_ms = -1.0;
    // per step: some dynamic body still awake after it
    std::vector<char> awake;
    // minor page faults over the steps (the process's, counted around
    // each of this world's steps: a fresh page's first touch)
    long page_faults = 0;
    // each step's time in Bullet's solve and collision zones (PhaseClock)
    std::vector<double> solve_ms, collide_ms;
    int sleep_step = -1;
    // --sleep-runs: each perturbed copy's sleep step (-1: never), deepest
    // penetration and kinetic energy at the end
    std::vector<int> sleep_runs;
    std::vector<double> pen_runs, ke_runs;
    double e_min = 0, energy_rise = 0, ke_max = 0;
    double pen_max = 0, pen_sum = 0, joint_max = 0;
    // at the end
    double ke_end = 0, pen_mean_end = 0, joint_end = 0;
    int awake_end = 0, contacts_end = 0, fallen = 0;
    // the dynamic bodies' positions at step drift_from (mark_drift), and
    // their displacement across gravity from there to the end
    int drift_from = 0;
    std::vector<btVector3> drift_start;
    double drift_mean = 0, drift_max = 0;
    // the cone steps, and those of them on more than one thread
    int cone_steps = 0, team_steps = 0;
    std::vector<rfscenes::StructureState> structures;
    rf_stats stats{};

    ~Run()
    {
        rf_bullet_detach(plugin); // before the world goes
    }

    // Attach and configure; false (error set) when the plugin refuses.
    bool setup()
    {
        rf_error err{};
        plugin = rf_bullet_attach(&world->world, nullptr, &err);
        if (plugin == nullptr) {
            error = err.message;
            return false;
        }
        if (spec.stock()) {
            rf_bullet_set_mode(plugin, RF_BULLET_STOCK);
            if (spec.solver == "stock2f") {
                // stock with a second friction row per point, the cone's
                // friction directions: Bullet's default (SOLVER_USE_2_
                // FRICTION_DIRECTIONS off) solves one row along the slip
                // velocity (or a fixed tangent), so a sticking point holds
                // in one direction only
                world->world.getSolverInfo().m_solverMode |=
                    SOLVER_USE_2_FRICTION_DIRECTIONS;
            }
            return true;
        }
        rf_bullet_get_config(plugin, &config);
        if (spec.solver != "defaults") {
            rf_bullet_config_default(&config);
            config.solver = spec.kind;
            if (spec.iterations > 0) {
                config.max_iter = spec.iterations;
                config.tol = 0;
            }
        }
        if (spec.threads >= 0) {
            config.threads = spec.threads;
        }
        if (rf_bullet_set_config(plugin, &config, &err) != RF_OK) {
            error = err.message;
            return false;
        }
        rf_bullet_get_config(plugin, &config);
        return true;
    }

    // After each step (and once before the first, step 0).
    void measure(int step)
    {
        const World &w = *world;
        const double ke = rfscenes::kinetic_energy(w);
        const double e = ke + rfscenes::potential_energy(w);
        if (step == 0) {
            e_min = e;
        }
        e_min = std::min(e_min, e);
        energy_rise = std::max(energy_rise, e - e_min);
        ke_max = std::max(ke_max, ke);
        if (step == 0) {
            return;
        }
        rf_bullet_timing tm{};
        if (!spec.stock() && rf_bullet_timing_get(plugin, &tm) == RF_OK &&
            tm.threads > 0) { // 0: the step fell back to stock
            ++cone_steps;
            team_steps += tm.threads > 1;
        }
        const rfscenes::Penetration p = rfscenes::penetration(*world);
        pen_max = std::max(pen_max, p.max);
        pen_sum += p.max;
        joint_max = std::max(joint_max, rfscenes::joint_error(w));
        const bool any_awake = rfscenes::awake_bodies(w) > 0;
        awake.push_back(any_awake);
        if (sleep_step < 0 && !any_awake) {
            sleep_step = step;
        }
    }

    // The positions that drift_mean / drift_max start from (after step).
    void mark_drift(int step)
    {
        drift_from = step;
        drift_start.clear();
        for (const auto &b : world->bodies) {
            drift_start.push_back(b->getWorldTransform().getOrigin());
        }
    }

    void finish()
    {
        const World &w = *world;
        int moving = 0;
        for (size_t i = 0; i < drift_start.size(); ++i) {
            if (w.bodies[i]->getInvMass() == 0) {
                continue;
            }
            const double d = rfscenes::sideways(w, (int)i, drift_start[i]);
            drift_mean += d;
            drift_max = std::max(drift_max, d);
            ++moving;
        }
        drift_mean = moving > 0 ? drift_mean / moving : 0.0;
        ke_end = rfscenes::kinetic_energy(w);
        awake_end = rfscenes::awake_bodies(w);
        const rfscenes::Penetration p = rfscenes::penetration(*world);
        pen_mean_end = p.mean;
        contacts_end = p.contacts;
        joint_end = rfscenes::joint_error(w);
        for (const rfscenes::Structure &s : w.structures) {
            structures.push_back(rfscenes::structure_state(w, s));
            fallen += structures.back().fallen;
        }
        if (!spec.stock()) {
            rf_bullet_stats(plugin, &stats);
        }
    }
};

double mean(const std::vector<double> &v)
{
    double s = 0;
    for (double x : v) {
        s += x;
    }
    return v.empty() ? 0 : s / (double)v.size();
}

// q-quantile by nearest rank (q = 0.5: the median's lower middle for an
// even count is fine at hundreds of samples).
double quantile(std::vector<double> v, double q)
{
    if (v.empty()) {
        return 0;
    }
    std::sort(v.begin(), v.end());
    size_t k = (size_t)std::ceil(q * (double)v.size());
    return v[k > 0 ? k - 1 : 0];
}

// The median of --sleep-runs' sleep steps, a run that never slept
// counting as later than any that did; -1 when half or more never slept.
int sleep_median(const std::vector<int> &v)
{
    if (v.empty()) {
        return -1;
    }
    std::vector<long> k;
    for (int x : v) {
        k.push_back(x < 0 ? 1L << 40 : x);
    }
    std::sort(k.begin(), k.end());
    const long m = k[(k.size() - 1) / 2]; // the lower middle: conservative
    return m >= 1L << 40 ? -1 : (int)m;
}

const char *solver_name(rf_solver_kind k)
{
    for (const SolverName &s : kSolvers) {
        if (s.kind == k) {
            return s.name;
        }
    }
    return "?";
}

const char *model_name(rf_model m)
{
    switch (m) {
    case RF_MODEL_ASSOCIATED: return "associated";
    case RF_MODEL_DESAXCE: return "desaxce";
    case RF_MODEL_PYRAMID: return "pyramid";
    }
    return "?";
}

std::string json_string(const std::string &s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if ((unsigned char)c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

// A finite number, or null (JSON has no NaN).
std::string num(double x)
{
    if (!std::isfinite(x)) {
        return "null";
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", x);
    return buf;
}

struct SceneResult {
    std::string name, description;
    int bodies = 0, joints = 0, iterations = 0, steps = 0;
    double seconds = 0;
    double joint_err_start = 0; // as built (Bullet's ragdoll starts apart)
    std::vector<std::string> structure_names;
    std::vector<std::unique_ptr<Run>> runs;
};

const Run *stock_of(const SceneResult &s)
{
    for (const auto &r : s.runs) {
        if (r->spec.solver == "stock" && r->error.empty()) {
            return r.get();
        }
    }
    return nullptr;
}

void json_run(FILE *f, const SceneResult &s, const Run &r, bool last)
{
    std::fprintf(f, "        {\"config\": %s, ",
                 json_string(r.spec.label).c_str());
    if (r.spec.stock()) {
        std::fprintf(f, "\"solver\": \"%s\", ", r.spec.solver.c_str());
    } else {
        std::fprintf(f,
                     "\"solver\": \"%s\", \"defaults\": %s, \"max_iter\": %d, "
                     "\"tol\": %s, \"threads\": %d, \"model\": \"%s\", ",
                     r.error.empty() ? solver_name(r.config.solver)
                                     : r.spec.solver.c_str(),
                     r.spec.solver == "defaults" ? "true" : "false",
                     r.config.max_iter, num(r.config.tol).c_str(),
                     r.config.threads, model_name(r.config.model));
    }
    if (!r.error.empty()) {
        std::fprintf(f, "\"error\": %s}%s\n", json_string(r.error).c_str(),
                     last ? "" : ",");
        return;
    }
    const Run *st = stock_of(s);
    const double mm = mean(r.ms), md = median(r.ms);
    std::fprintf(
        f,
        "\"error\": null,\n         \"ms_mean\": %s, \"ms_median\": "
        "%s, \"ms_p90\": %s, \"ms_max\": %s, \"ms_first\": %s, "
        "\"max_step\": %d, \"page_faults\": %ld,\n         ",
        num(mm).c_str(), num(md).c_str(), num(quantile(r.ms, 0.9)).c_str(),
        num(quantile(r.ms, 1.0)).c_str(), num(r.first_ms).c_str(),
        (int)(std::max_element(r.ms.begin(), r.ms.end()) - r.ms.begin()) + 1,
        r.page_faults);
    if (st != nullptr && r.spec.solver != "stock") {
        // the steps after which both worlds had a body awake
        double own = 0.0, theirs = 0.0;
        int both = 0;
        for (size_t k = 0; k < r.ms.size() && k < st->ms.size() &&
                           k < r.awake.size() && k < st->awake.size();
             ++k) {
            if (r.awake[k] && st->awake[k]) {
                own += r.ms[k];
                theirs += st->ms[k];
                ++both;
            }
        }
        std::fprintf(f,
                     "\"ratio_mean\": %s, \"ratio_median\": %s, "
                     "\"ratio_awake\": %s, \"awake_steps\": %d, "
                     "\"ratio_first\": %s,\n",
                     num(mm / mean(st->ms)).c_str(),
                     num(md / median(st->ms)).c_str(),
                     both > 0 ? num(own / theirs).c_str() : "null", both,
                     r.first_ms > 0.0 && st->first_ms > 0.0
                         ? num(r.first_ms / st->first_ms).c_str()
                         : "null");
    } else {
        std::fprintf(f, "\"ratio_mean\": null, \"ratio_median\": null, "
                        "\"ratio_awake\": null, \"awake_steps\": null, "
                        "\"ratio_first\": null,\n");
    }
    const double sm = mean(r.solve_ms);
    std::fprintf(f,
                 "         \"solve_ms_mean\": %s, \"collide_ms_mean\": %s, "
                 "\"solve_ratio_mean\": %s,\n",
                 num(sm).c_str(), num(mean(r.collide_ms)).c_str(),
                 st != nullptr && r.spec.solver != "stock" &&
                         mean(st->solve_ms) > 0.0
                     ? num(sm / mean(st->solve_ms)).c_str()
                     : "null");
    std::fprintf(
        f,
        "         \"sleep_step\": %d, \"awake_end\": %d, \"ke_end\": %s, "
        "\"ke_max\": %s, \"energy_rise\": %s,\n         \"pen_max\": %s, "
        "\"pen_mean_max\": %s, \"pen_mean_end\": %s, \"contacts_end\": %d, "
        "\"fallen\": %d, \"cone_steps\": %d, \"team_steps\": %d,\n"
        "         \"drift_from\": %d, \"drift_mean\": %s, \"drift_max\": %s,\n",
        r.sleep_step, r.awake_end, num(r.ke_end).c_str(), num(r.ke_max).c_str(),
        num(r.energy_rise).c_str(), num(r.pen_max).c_str(),
        num(r.ms.empty() ? 0 : r.pen_sum / (double)r.ms.size()).c_str(),
        num(r.pen_mean_end).c_str(), r.contacts_end, r.fallen, r.cone_steps,
        r.team_steps, r.drift_from, num(r.drift_mean).c_str(),
        num(r.drift_max).c_str());
    if (!r.sleep_runs.empty()) {
        std::fprintf(f, "         \"sleep_runs\": [");
        for (size_t i = 0; i < r.sleep_runs.size(); ++i) {
            std::fprintf(f, "%s%d", i ? ", " : "", r.sleep_runs[i]);
        }
        std::fprintf(f, "], \"sleep_median\": %d,\n",
                     sleep_median(r.sleep_runs));
        for (int which = 0; which < 2; ++which) {
            const std::vector<double> &v = which ? r.ke_runs : r.pen_runs;
            std::fprintf(f, "         \"%s_runs\": [", which ? "ke" : "pen");
            for (size_t i = 0; i < v.size(); ++i) {
                std::fprintf(f, "%s%s", i ? ", " : "", num(v[i]).c_str());
            }
            std::fprintf(f, "], \"%s_median\": %s,\n", which ? "ke" : "pen",
                         num(median(v)).c_str());
        }
    }
    std::fprintf(f, "         \"structures\": [");
    for (size_t i = 0; i < r.structures.size(); ++i) {
        const rfscenes::StructureState &ss = r.structures[i];
        std::fprintf(f,
                     "%s{\"name\": %s, \"bodies\": %d, \"top_displacement\": "
                     "%s, \"fallen\": %d}",
                     i ? ", " : "", json_string(s.structure_names[i]).c_str(),
                     ss.bodies, num(ss.top_displacement).c_str(), ss.fallen);
    }
    std::fprintf(f, "],\n");
    if (s.joints > 0) {
        std::fprintf(f,
                     "         \"joint_err_end\": %s, \"joint_err_max\": %s,\n",
                     num(r.joint_end).c_str(), num(r.joint_max).c_str());
    } else {
        std::fprintf(
            f, "         \"joint_err_end\": null, \"joint_err_max\": null,\n");
    }
    if (r.spec.stock()) {
        std::fprintf(f, "         \"iterations\": null, \"residual\": null, "
                        "\"rows\": null}");
    } else {
        std::fprintf(f,
                     "         \"iterations\": %d, \"residual\": %s, \"rows\": "
                     "%d, \"contacts_solved\": %d}",
                     r.stats.iterations, num(r.stats.residual).c_str(),
                     r.stats.rows, r.stats.contacts);
    }
    std::fprintf(f, "%s\n", last ? "" : ",");
}

// What the command line asks of every world and its bodies.
struct BodyOptions {
    bool no_sleep = false; // --no-sleep: DISABLE_DEACTIVATION
    bool anchors = false;  // --anchors: CF_HAS_FRICTION_ANCHOR
    double erp2 = -1.0;    // --erp2: m_erp2 (negative: the scene's own)
};

bool write_json(const char *path, bool quick, bool load, const BodyOptions &opt,
                const std::vector<SceneResult> &scenes)
{
    FILE *f = std::fopen(path, "w");
    if (f == nullptr) {
        std::perror(path);
        return false;
    }
    char when[32];
    const std::time_t t = std::time(nullptr);
    std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    std::fprintf(f,
                 "{\n  \"generated\": \"%s\",\n  \"cpus\": %ld,\n  \"quick\": "
                 "%s,\n  \"load\": %s,\n  \"no_sleep\": %s,\n  \"anchors\": "
                 "%s,\n  \"erp2\": %s,\n  \"step\": %s,\n  \"scenes\": [\n",
                 when, sysconf(_SC_NPROCESSORS_ONLN), quick ? "true" : "false",
                 load ? "true" : "false", opt.no_sleep ? "true" : "false",
                 opt.anchors ? "true" : "false",
                 opt.erp2 >= 0.0 ? num(opt.erp2).c_str() : "null",
                 num(rfscenes::kStep).c_str());
    for (size_t i = 0; i < scenes.size(); ++i) {
        const SceneResult &s = scenes[i];
        std::fprintf(f,
                     "    {\"scene\": %s, \"description\": %s, \"bodies\": %d, "
                     "\"joints\": %d, \"joint_err_start\": %s,\n     "
                     "\"solver_iterations\": %d, \"steps\": %d, \"seconds\": "
                     "%s,\n     \"configs\": [\n",
                     json_string(s.name).c_str(),
                     json_string(s.description).c_str(), s.bodies, s.joints,
                     s.joints > 0 ? num(s.joint_err_start).c_str() : "null",
                     s.iterations, s.steps, num(s.seconds).c_str());
        for (size_t k = 0; k < s.runs.size(); ++k) {
            json_run(f, s, *s.runs[k], k + 1 == s.runs.size());
        }
        std::fprintf(f, "     ]}%s\n", i + 1 < scenes.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    return std::fclose(f) == 0;
}

// A run of scene `name` with configuration spec, its world built (gravity
// scaled by gravity_scale, the bodies as opt asks) and the plugin set up
// (*ok false: its error set).
std::unique_ptr<Run> new_run(const std::string &name, bool quick,
                             const ConfigSpec &spec, double gravity_scale,
                             const BodyOptions &opt, bool *ok)
{
    auto r = std::make_unique<Run>();
    r->spec = spec;
    r->world = std::make_unique<World>();
    rfscenes::build_scene(*r->world, name,
                          quick ? rfscenes::Size::quick : rfscenes::Size::full);
    btDiscreteDynamicsWorld &w = r->world->world;
    if (gravity_scale != 1.0) {
        w.setGravity(w.getGravity() * btScalar(gravity_scale));
    }
    if (opt.erp2 >= 0.0) {
        w.getSolverInfo().m_erp2 = btScalar(opt.erp2);
    }
    for (const auto &b : r->world->bodies) {
        if (opt.no_sleep) {
            b->setActivationState(DISABLE_DEACTIVATION);
        }
        if (opt.anchors) {
            b->setCollisionFlags(b->getCollisionFlags() |
                                 btCollisionObject::CF_HAS_FRICTION_ANCHOR);
        }
    }
    *ok = r->setup();
    return r;
}

// Each configuration's first step, ms, into runs[c]->first_ms: the median
// over five fresh worlds, each built alone as the runs are and stepped
// once right after (configurations taken in turn).  Measured beside the
// other worlds of its scene, a first step depends on which was built
// last: the cone's first step is 7x stock's on the small stacks with the
// cone's world built first, 1.2x built last.
void first_steps(const std::string &name, bool quick, const BodyOptions &opt,
                 std::vector<std::unique_ptr<Run>> &runs)
{
    const size_t n = runs.size();
    std::vector<std::vector<double>> t(n);
    for (int k = 0; k < 5; ++k) {
        for (size_t c = 0; c < n; ++c) {
            bool ok = false;
            std::unique_ptr<Run> r =
                new_run(name, quick, runs[c]->spec, 1.0, opt, &ok);
            if (ok) {
                double phase[2];
                t[c].push_back(1e3 * rfbench::PhaseClock::timed(
                                         [&] { r->world->step(); }, phase));
            }
        }
    }
    for (size_t c = 0; c < n; ++c) {
        runs[c]->first_ms = t[c].empty() ? -1.0 : median(t[c]);
    }
}

// One perturbed copy for --sleep-runs: the scene with gravity scaled by
// 1 + perturb k, the configuration as in the main run, stepped until every
// body sleeps or for `steps`.  Sleeping is chaotic in piles and ragdolls:
// one body's brief wake-up restarts its island's 2 s timer, so one run's
// step moves by a hundred either way; the deepest penetration is set by
// where a fast body happens to be when its first contact is found, and
// the end energy of a scene still moving by what is still falling.
struct PerturbedRun {
    int sleep = -1;     // sleep step, -1: never
    double pen_max = 0; // deepest manifold point over the run, m
    double ke_end = 0;  // kinetic energy after the last step, J
};

PerturbedRun perturbed_run(const std::string &name, bool quick,
                           const ConfigSpec &spec, int steps, int k,
                           double perturb, const BodyOptions &opt)
{
    bool ok;
    PerturbedRun out;
    std::unique_ptr<Run> r =
        new_run(name, quick, spec, 1.0 + perturb * k, opt, &ok);
    for (int step = 1; ok && step <= steps; ++step) {
        r->world->step();
        out.pen_max =
            std::max(out.pen_max, rfscenes::penetration(*r->world).max);
        if (rfscenes::awake_bodies(*r->world) == 0) {
            out.sleep = step; // asleep: nothing moves any more
            return out;
        }
    }
    out.ke_end = ok ? rfscenes::kinetic_energy(*r->world) : 0.0;
    return out;
}

void print_header()
{
    std::printf("%-16s %-16s %8s %8s %6s %6s %6s %6s %6s %6s %10s %9s %8s "
                "%6s %9s\n",
                "scene", "config", "ms mean", "ms p90", "ratio", "first",
                "solve", "sleep", "median", "awake", "KE end J", "E rise J",
                "pen max", "fallen", "joint err");
}

void print_row(const SceneResult &s, const Run &r)
{
    if (!r.error.empty()) {
        std::printf("%-16s %-16s error: %s\n", s.name.c_str(),
                    r.spec.label.c_str(), r.error.c_str());
        return;
    }
    const Run *st = stock_of(s);
    char ratio[16] = "-", first[16] = "-", solve[16] = "-", fallen[16] = "-",
         joint[32] = "-";
    if (st != nullptr && r.spec.solver != "stock") {
        std::snprintf(ratio, sizeof ratio, "%.2f", mean(r.ms) / mean(st->ms));
        if (r.first_ms > 0.0 && st->first_ms > 0.0) {
            std::snprintf(first, sizeof first, "%.2f",
                          r.first_ms / st->first_ms);
        }
        if (mean(st->solve_ms) > 0.0) {
            std::snprintf(solve, sizeof solve, "%.2f",
                          mean(r.solve_ms) / mean(st->solve_ms));
        }
    }
    if (!r.structures.empty()) {
        std::snprintf(fallen, sizeof fallen, "%d", r.fallen);
    }
    if (s.joints > 0) {
        std::snprintf(joint, sizeof joint, "%.3f/%.3f", r.joint_end,
                      r.joint_max);
    }
    char med[16] = "-";
    if (!r.sleep_runs.empty()) {
        std::snprintf(med, sizeof med, "%d", sleep_median(r.sleep_runs));
    }
    std::printf("%-16s %-16s %8.3f %8.3f %6s %6s %6s %6d %6s %6d %10.4g "
                "%9.4g %8.4f %6s %9s\n",
                s.name.c_str(), r.spec.label.c_str(), mean(r.ms),
                quantile(r.ms, 0.9), ratio, first, solve, r.sleep_step, med,
                r.awake_end, r.ke_end, r.energy_rise, r.pen_max, fallen, joint);
}

// The --load child: spin until killed.  PR_SET_PDEATHSIG so that it dies
// with the benchmark even if the benchmark is killed.
pid_t start_load()
{
    const pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        volatile unsigned long x = 0;
        for (;;) {
            x = x + 1;
        }
    }
    if (pid < 0) {
        std::perror("fork");
    }
    return pid;
}

int usage()
{
    std::fprintf(
        stderr,
        "usage: rfbench_scenes [--quick] [--scenes a,b,c] [--steps N]\n"
        "                      [--configs stock,defaults,gs,apgd:10]\n"
        "                      [--threads 1,2] [--sleep-runs K] [--perturb S]\n"
        "                      [--load] [--no-sleep] [--anchors]\n"
        "                      [--erp2 E] [--out FILE]\n"
        "scenes:");
    for (const rfscenes::SceneEntry &e : rfscenes::kScenes) {
        std::fprintf(stderr, " %s", e.name);
    }
    std::fprintf(stderr,
                 "\nconfigs: stock, stock2f (stock with two friction rows "
                 "per point),\n         defaults, NAME or NAME:K with NAME "
                 "in si gs gs_colored jacobi apgd\n");
    return 2;
}

} // namespace

int main(int argc, char **argv)
{
    bool quick = false, load = false;
    BodyOptions opt;
    int steps = -1, sleep_runs = 0;
    double perturb = 1e-3;
    std::vector<std::string> scenes,
        configs = {"stock", "defaults", "gs", "apgd:10"};
    std::vector<int> threads; // empty: as each configuration has them
    const char *out = "bench/results/rfbench-scenes.json";
    for (const rfscenes::SceneEntry &e : rfscenes::kScenes) {
        scenes.push_back(e.name);
    }
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!std::strcmp(a, "--quick")) {
            quick = true;
            continue;
        } else if (!std::strcmp(a, "--load")) {
            load = true;
            continue;
        } else if (!std::strcmp(a, "--no-sleep")) {
            opt.no_sleep = true;
            continue;
        } else if (!std::strcmp(a, "--anchors")) {
            opt.anchors = true;
            continue;
        } else if (v == nullptr) {
            return usage();
        }
        ++i;
        if (!std::strcmp(a, "--scenes") && !std::strcmp(v, "small")) {
            scenes = {"small_stacks",   "small_spheres",  "incline", "cradle",
                      "multiple_boxes", "compound_boxes", "chain",   "bridge"};
        } else if (!std::strcmp(a, "--scenes")) {
            scenes = split(v);
        } else if (!std::strcmp(a, "--configs")) {
            configs = split(v);
        } else if (!std::strcmp(a, "--steps")) {
            if (!parse_int(v, &steps) || steps < 1) {
                return usage();
            }
        } else if (!std::strcmp(a, "--sleep-runs")) {
            if (!parse_int(v, &sleep_runs)) {
                return usage();
            }
        } else if (!std::strcmp(a, "--erp2")) {
            if (!parse_real(v, 0.0, 1.0, false, &opt.erp2)) {
                return usage();
            }
        } else if (!std::strcmp(a, "--perturb")) {
            if (!parse_real(v, 0.0, 0.01, true, &perturb)) {
                return usage();
            }
        } else if (!std::strcmp(a, "--threads")) {
            threads.clear();
            for (const std::string &t : split(v)) {
                int n;
                if (!parse_int(t, &n)) {
                    return usage();
                }
                threads.push_back(n);
            }
        } else if (!std::strcmp(a, "--out")) {
            out = v;
        } else {
            return usage();
        }
    }
    std::vector<ConfigSpec> specs;
    if (configs.empty() || !parse_configs(configs, threads, &specs)) {
        return usage();
    }
    for (const std::string &s : scenes) {
        if (rfscenes::find_scene(s) == nullptr) {
            std::fprintf(stderr, "rfbench_scenes: unknown scene %s\n",
                         s.c_str());
            return usage();
        }
    }

    // before any OpenMP thread exists (the child inherits only this one)
    rfbench::PhaseClock::install(); // solve_ms, collide_ms
    const pid_t loader = load ? start_load() : -1;
    char erp2_note[48] = "";
    if (opt.erp2 >= 0.0) {
        std::snprintf(erp2_note, sizeof erp2_note, ", m_erp2 %g", opt.erp2);
    }
    std::printf("rfbench_scenes (%s%s%s%s%s): steps of 1/60 s, the worlds of "
                "a scene stepped interleaved; ms = wall time of "
                "stepSimulation\n",
                quick ? "quick" : "full", load ? ", one core loaded" : "",
                opt.no_sleep ? ", bodies kept awake" : "",
                opt.anchors ? ", friction anchors" : "", erp2_note);

    std::vector<SceneResult> results;
    for (const std::string &name : scenes) {
        SceneResult sr;
        sr.name = name;
        const rfscenes::SceneEntry *entry = rfscenes::find_scene(name);
        sr.steps = steps > 0 ? steps
                   : quick   ? entry->quick_steps
                             : entry->full_steps;
        const size_t n = specs.size();
        for (size_t k = 0; k < n; ++k) {
            bool ok;
            std::unique_ptr<Run> r =
                new_run(name, quick, specs[k], 1.0, opt, &ok);
            if (ok) {
                r->ms.reserve((size_t)sr.steps);
                r->measure(0);
                r->mark_drift(0); // steps / 2 moves it (a one-step run: 0)
            }
            sr.runs.push_back(std::move(r));
        }
        first_steps(name, quick, opt, sr.runs);
        const World &w0 = *sr.runs[0]->world;
        sr.description = w0.description;
        sr.bodies = w0.dynamic;
        sr.joints = (int)w0.joints.size();
        sr.joint_err_start = rfscenes::joint_error(w0);
        sr.iterations = w0.world.getSolverInfo().m_numIterations;
        for (const rfscenes::Structure &s : w0.structures) {
            sr.structure_names.push_back(s.name);
        }
        std::printf("\n== %s: %s; %d iterations (Bullet's setting), %d "
                    "steps",
                    name.c_str(), sr.description.c_str(), sr.iterations,
                    sr.steps);
        if (sr.joints > 0) {
            std::printf("; joint error as built %.3f m", sr.joint_err_start);
        }
        std::printf("\n");
        std::fflush(stdout);
        const double t0 = now();
        const size_t nrun = sr.runs.size();
        for (int step = 1; step <= sr.steps; ++step) {
            for (size_t q = 0; q < nrun; ++q) { // rotated (Runs, above)
                auto &r = sr.runs[((size_t)step + q) % nrun];
                if (!r->error.empty()) {
                    continue;
                }
                double phase[2];
                const long f0 = minor_faults();
                r->ms.push_back(1e3 * rfbench::PhaseClock::timed(
                                          [&] { r->world->step(); }, phase));
                r->page_faults += minor_faults() - f0;
                r->solve_ms.push_back(1e3 * phase[rfbench::PhaseClock::kSolve]);
                r->collide_ms.push_back(1e3 *
                                        phase[rfbench::PhaseClock::kCollide]);
                r->measure(step);
                if (step == sr.steps / 2) {
                    r->mark_drift(step);
                }
            }
        }
        sr.seconds = now() - t0;
        for (auto &r : sr.runs) {
            if (r->error.empty()) {
                r->finish();
            }
        }
        for (auto &r : sr.runs) {
            for (int k = 1; r->error.empty() && k <= sleep_runs; ++k) {
                const PerturbedRun pr = perturbed_run(
                    name, quick, r->spec, sr.steps, k, perturb, opt);
                r->sleep_runs.push_back(pr.sleep);
                r->pen_runs.push_back(pr.pen_max);
                r->ke_runs.push_back(pr.ke_end);
            }
        }
        print_header();
        for (auto &r : sr.runs) {
            print_row(sr, *r);
        }
        for (auto &r : sr.runs) { // creep across gravity, second half
            if (opt.no_sleep && r->error.empty()) {
                std::printf("%-16s %-16s drift from step %d: mean %.2f mm, "
                            "max %.2f mm\n",
                            sr.name.c_str(), r->spec.label.c_str(),
                            r->drift_from, 1e3 * r->drift_mean,
                            1e3 * r->drift_max);
            }
        }
        std::fflush(stdout);
        // free the worlds now: the full-size scenes are large
        for (auto &r : sr.runs) {
            rf_bullet_detach(r->plugin);
            r->plugin = nullptr;
            r->world.reset();
        }
        results.push_back(std::move(sr));
    }

    if (loader > 0) {
        kill(loader, SIGKILL);
        waitpid(loader, nullptr, 0);
    }
    if (!write_json(out, quick, load, opt, results)) {
        return 1;
    }
    std::printf("\nJSON: %s\n", out);
    return 0;
}
