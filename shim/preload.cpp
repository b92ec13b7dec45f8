// librollfric_preload.so: LD_PRELOAD=.../librollfric_preload.so ./app makes
// every btDiscreteDynamicsWorld the application constructs use the cone
// solver, without rebuilding the application (docs/bullet.md, LD_PRELOAD).
//
// How: libBulletDynamics exports the world's complete-object constructor
// and destructors and is not linked -Bsymbolic, so definitions here, found
// first, are what the application (and the world's vtable) call.  Each
// hook calls the real function, found with dlsym(RTLD_NEXT).  Worlds
// constructed as btDiscreteDynamicsWorld itself (its C1 constructor) and
// as btDiscreteDynamicsWorldMt (the multithreaded world's C1: every island
// through the cone, docs/bullet.md) are attached; a btMultiBodyDynamicsWorld
// is named and left to its own solver; other subclasses (soft-body, the
// application's own) construct the base through C2 and are left alone.
// Every world's destructor ends in the base's D2 (a subclass's destructor
// calls it), which detaches.
//
// Configuration: rf_bullet_config_default (sequential impulse, De Saxce,
// the world's iteration budget), then the environment: ROLLFRIC=off
// disables; ROLLFRIC_CONVERGED, ROLLFRIC_SOLVER, ROLLFRIC_MODEL,
// ROLLFRIC_ITERATIONS, ROLLFRIC_TOLERANCE, ROLLFRIC_THREADS
// (rf_bullet_config_from_env); ROLLFRIC_ROLLING_FRICTION and
// ROLLFRIC_SPINNING_FRICTION (rf_bullet_apply_env); ROLLFRIC_VERBOSE=1
// prints a line a second; ROLLFRIC_QUIET=1 silences the line printed at
// attach and the summary of warnings at exit; ROLLFRIC_RECORD=FILE
// records each world's run (rf_bullet_record_start, 60 frames per
// simulated second; the second world to FILE.2, ...), with ROLLFRIC=off
// too (the world then steps with its own solver), and
// ROLLFRIC_RECORD_CONTACTS=1 adds the contact points; a world never
// deleted has its recording ended at exit.  Switches take off, false, no,
// 0 and on, true, yes, 1 in any case; an unknown ROLLFRIC_* variable is
// named with the nearest known one.
//
// This file includes no Bullet class header, so the hooks can be defined
// under the constructor's mangled names; worlds are opaque pointers here.
#include "env.hpp"
#include "rollfric/rollfric_bullet.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#define RF_CTOR_C1                                                             \
    _ZN23btDiscreteDynamicsWorldC1EP12btDispatcherP21btBroadphaseInterfaceP18btConstraintSolverP24btCollisionConfiguration
#define RF_CTOR_MT_C1                                                          \
    _ZN25btDiscreteDynamicsWorldMtC1EP12btDispatcherP21btBroadphaseInterfaceP24btConstraintSolverPoolMtP18btConstraintSolverP24btCollisionConfiguration
#define RF_CTOR_MB_C1                                                          \
    _ZN24btMultiBodyDynamicsWorldC1EP12btDispatcherP21btBroadphaseInterfaceP27btMultiBodyConstraintSolverP24btCollisionConfiguration
#define RF_SET_SOLVER                                                          \
    _ZN23btDiscreteDynamicsWorld19setConstraintSolverEP18btConstraintSolver
#define RF_DTOR_D0 _ZN23btDiscreteDynamicsWorldD0Ev
#define RF_DTOR_D1 _ZN23btDiscreteDynamicsWorldD1Ev
#define RF_DTOR_D2 _ZN23btDiscreteDynamicsWorldD2Ev
#define RF_STR2(x) #x
#define RF_STR(x) RF_STR2(x)

namespace {

// What the preload says at exit: the warnings of every world it attached
// to, by kind (rf_bullet_warning), and the last message of each.
struct WarningTally {
    long count[RF_BULLET_WARN_COUNT] = {};
    std::string last[RF_BULLET_WARN_COUNT];

    void add(const rf_plugin *p)
    {
        for (int k = 0; k < (int)RF_BULLET_WARN_COUNT; ++k) {
            rf_bullet_warning_info w;
            if (rf_bullet_get_warning(p, (rf_bullet_warning)k, &w) == RF_OK &&
                w.count > 0) {
                count[k] += w.count;
                last[k] = w.message;
            }
        }
    }
    void print() const
    {
        long total = 0;
        for (long c : count) {
            total += c;
        }
        if (total == 0 || quiet()) {
            return;
        }
        std::fprintf(stderr, "rollfric: warnings during this run:\n");
        for (int k = 0; k < (int)RF_BULLET_WARN_COUNT; ++k) {
            if (count[k] > 0) {
                std::fprintf(stderr, "rollfric:   %ld x %s (last: %s)\n",
                             count[k], kind_name(k), last[k].c_str());
            }
        }
    }
    static const char *kind_name(int k)
    {
        static const char *const names[] = {"body held out",
                                            "point skipped",
                                            "coefficient used as 0",
                                            "anisotropy not modelled",
                                            "joint or row skipped",
                                            "bad time step",
                                            "step solved by stock",
                                            "point state not kept",
                                            "internal",
                                            "recording stopped",
                                            "setting not honoured"};
        // a kind added to rf_bullet_warning_kind needs its name here
        static_assert(sizeof names / sizeof names[0] == RF_BULLET_WARN_COUNT,
                      "a name per rf_bullet_warning_kind");
        return names[k];
    }
    static bool quiet()
    {
        bool q = false;
        std::string msg;
        return rfshim::env::switch_var("ROLLFRIC_QUIET", false, &q, &msg) && q;
    }
};

// The worlds this library attached to.  A preload hook has no object to
// hang state on, so this one table is process-wide, behind a mutex.  At
// exit it ends the recordings of the worlds the program never deleted
// (rf_bullet_record_end: the end mark, no last frame, nothing read from
// the world, whose bodies may be gone), so that they read as complete,
// and prints the summary of warnings.  It is constructed during the first
// world's construction, so it is destroyed after every world with static
// storage.
struct Registry {
    std::mutex lock;
    std::vector<std::pair<void *, rf_plugin *>> worlds;
    WarningTally tally;
    ~Registry()
    {
        for (auto &w : worlds) {
            rf_error err;
            if (rf_bullet_record_end(w.second, &err) != RF_OK) {
                std::fprintf(stderr, "rollfric: ROLLFRIC_RECORD: %s\n",
                             err.message);
            }
            tally.add(w.second);
        }
        tally.print();
    }
};

Registry &registry()
{
    static Registry r;
    return r;
}

void *real_symbol(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (f == nullptr) {
        std::fprintf(stderr,
                     "rollfric: preload: %s not found after this library "
                     "(is the application linked against "
                     "libBulletDynamics?)\n",
                     name);
        std::abort(); // nothing sensible can be called instead
    }
    return f;
}

// Prints msg once per process (the first world's attach), for what the
// environment gets wrong.
void say_once(const std::string &msg)
{
    static std::mutex m;
    static std::vector<std::string> said;
    std::lock_guard<std::mutex> g(m);
    for (const std::string &s : said) {
        if (s == msg) {
            return;
        }
    }
    said.push_back(msg);
    std::fprintf(stderr, "rollfric: %s\n", msg.c_str());
}

// A switch variable (ROLLFRIC, ROLLFRIC_VERBOSE, ...); a bad value is
// reported once and read as dflt_bad.
bool switch_env(const char *name, bool dflt, bool dflt_bad)
{
    bool on = dflt;
    std::string msg;
    if (!rfshim::env::switch_var(name, dflt, &on, &msg)) {
        say_once(msg + "; read as " + (dflt_bad ? "on" : "off"));
        return dflt_bad;
    }
    return on;
}

// ROLLFRIC: on unless switched off; a value that is not a switch is
// reported and leaves rollfric off (the application's own solver).
bool env_off()
{
    return !switch_env("ROLLFRIC", true, false);
}

// The Bullet library the real constructor lives in must have our
// precision: the hook itself is the same symbol in both builds.
bool precision_matches(void *real_ctor)
{
    Dl_info info;
    if (dladdr(real_ctor, &info) == 0 || info.dli_fname == nullptr) {
        return true; // cannot tell (static Bullet in the app): trust it
    }
    const bool lib64 = std::strstr(info.dli_fname, "float64") != nullptr;
    const bool ours64 = rf_bullet_scalar_size() == 8;
    if (lib64 != ours64) {
        std::fprintf(stderr,
                     "rollfric: preload: the application uses %s but this is "
                     "librollfric_preload%s.so; use "
                     "librollfric_preload%s.so.  rollfric is off.\n",
                     info.dli_fname, ours64 ? "-float64" : "",
                     lib64 ? "-float64" : "");
        return false;
    }
    return true;
}

// ROLLFRIC_RECORD's file for the n-th recorded world (0-based): FILE,
// FILE.2, FILE.3, ...
std::string record_path(const char *base, int n)
{
    std::string s(base);
    if (n > 0) {
        s += "." + std::to_string(n + 1);
    }
    return s;
}

// Records p's world into ROLLFRIC_RECORD's file (file: its value, set).
void start_recording(rf_plugin *p, const char *file)
{
    static int recorded = 0; // worlds recorded so far (under the registry)
    const int contacts = switch_env("ROLLFRIC_RECORD_CONTACTS", false, false);
    const std::string path = record_path(file, recorded++);
    rf_error err;
    if (rf_bullet_record_start(p, path.c_str(), 1.0 / 60, contacts, &err) !=
        RF_OK) {
        std::fprintf(stderr, "rollfric: ROLLFRIC_RECORD: %s\n", err.message);
    }
}

// What every world's attach first checks: unknown variables (said once).
void check_environment()
{
    const std::string unknown = rfshim::env::unknown_variables();
    size_t at = 0;
    while (at < unknown.size()) {
        const size_t nl = unknown.find('\n', at);
        say_once(unknown.substr(at, nl - at));
        at = nl + 1;
    }
}

const char kOwnSolver[] = "the world goes on with Bullet's own solver";

// Attaches to world (real_ctor: the real constructor, whose library's
// precision is checked; nullptr when checked already).
void attach(void *world, void *real_ctor)
{
    check_environment();
    const char *rec = std::getenv("ROLLFRIC_RECORD");
    const bool record = rec != nullptr && *rec != '\0';
    const bool off = env_off();
    if ((off && !record) ||
        (real_ctor != nullptr && !precision_matches(real_ctor))) {
        return;
    }
    rf_config cfg;
    rf_bullet_config_default(&cfg);
    rf_error err;
    if (rf_bullet_config_from_env(&cfg, &err) != RF_OK) {
        say_once(std::string(err.message) + "; " + kOwnSolver);
        return;
    }
    if (cfg.max_iter > RF_MANY_ITERATIONS && cfg.tol == 0.0) {
        say_once("ROLLFRIC_ITERATIONS=" + std::to_string(cfg.max_iter) +
                 " with no tolerance: every step runs all of them (more "
                 "than " +
                 std::to_string(RF_MANY_ITERATIONS) +
                 "); give ROLLFRIC_TOLERANCE to stop sooner");
    }
    if (cfg.tol > RF_LOOSE_TOL) {
        char loose[96];
        std::snprintf(loose, sizeof loose,
                      "ROLLFRIC_TOLERANCE=%g is loose (above %g)", cfg.tol,
                      RF_LOOSE_TOL);
        say_once(std::string(loose) +
                 ": rolling and spinning torques, a few percent of the "
                 "normal impulse, may be left out");
    }
    if (cfg.max_iter == RF_BULLET_WORLD_ITERATIONS &&
        (cfg.solver == RF_SOLVER_JACOBI || cfg.solver == RF_SOLVER_APGD)) {
        // rf_bullet_attach refuses it in C-API terms: say it in the
        // variables a preload user sets
        say_once(std::string("ROLLFRIC_SOLVER=") +
                 (cfg.solver == RF_SOLVER_JACOBI ? "jacobi" : "apgd") +
                 " at the world's iteration budget does not hold Bullet's "
                 "stacks: give ROLLFRIC_ITERATIONS (and ROLLFRIC_TOLERANCE), "
                 "set ROLLFRIC_CONVERGED=1, or leave ROLLFRIC_SOLVER unset; " +
                 kOwnSolver);
        return;
    }
    rf_plugin *p = rf_bullet_attach(
        static_cast<btDiscreteDynamicsWorld *>(world), &cfg, &err);
    if (p == nullptr) {
        say_once(std::string(err.message) + "; " + kOwnSolver);
        return;
    }
    if (rf_bullet_apply_env(p, &err) != RF_OK) {
        say_once(std::string(err.message) + "; " + kOwnSolver);
        rf_bullet_detach(p);
        return;
    }
    rf_bullet_set_verbose(p, switch_env("ROLLFRIC_VERBOSE", false, false));
    if (off) { // attached only to record: stock steps the world
        rf_bullet_set_mode(p, RF_BULLET_STOCK);
    }
    if (!switch_env("ROLLFRIC_QUIET", false, false)) {
        char line[512];
        rf_bullet_describe(p, line, sizeof line);
        std::fprintf(stderr, "rollfric: %s%s\n", line,
                     off ? "; ROLLFRIC=off: stock steps it, recorded" : "");
    }
    Registry &r = registry();
    std::lock_guard<std::mutex> g(r.lock);
    if (record) {
        start_recording(p, rec);
    }
    r.worlds.emplace_back(world, p);
}

// Takes world's plugin out of the registry (its warnings into the tally);
// nullptr when this library did not attach to world.
rf_plugin *take(void *world)
{
    Registry &r = registry();
    std::lock_guard<std::mutex> g(r.lock);
    for (size_t i = 0; i < r.worlds.size(); ++i) {
        if (r.worlds[i].first == world) {
            rf_plugin *p = r.worlds[i].second;
            r.worlds[i] = r.worlds.back();
            r.worlds.pop_back();
            r.tally.add(p);
            return p;
        }
    }
    return nullptr;
}

void detach(void *world)
{
    rf_bullet_detach(take(world)); // before the real destructor frees the
                                   // solver
}

using ctor_fn = void (*)(void *, void *, void *, void *, void *);
using ctor_mt_fn = void (*)(void *, void *, void *, void *, void *, void *);
using set_solver_fn = void (*)(void *, void *);
using dtor_fn = void (*)(void *);

} // namespace

extern "C" {

__attribute__((visibility("default"))) void
RF_CTOR_C1(void *self, void *dispatcher, void *pairs, void *solver,
           void *config)
{
    static ctor_fn real = (ctor_fn)real_symbol(RF_STR(RF_CTOR_C1));
    real(self, dispatcher, pairs, solver, config);
    attach(self, (void *)real);
}

__attribute__((visibility("default"))) void
RF_CTOR_MT_C1(void *self, void *dispatcher, void *pairs, void *solver_pool,
              void *solver_mt, void *config)
{
    static ctor_mt_fn real = (ctor_mt_fn)real_symbol(RF_STR(RF_CTOR_MT_C1));
    real(self, dispatcher, pairs, solver_pool, solver_mt, config);
    attach(self, (void *)real);
}

// A multibody world keeps its btMultiBodyConstraintSolver (rf_bullet_attach
// refuses it): said, not silent.
__attribute__((visibility("default"))) void
RF_CTOR_MB_C1(void *self, void *dispatcher, void *pairs, void *solver,
              void *config)
{
    static ctor_fn real = (ctor_fn)real_symbol(RF_STR(RF_CTOR_MB_C1));
    real(self, dispatcher, pairs, solver, config);
    check_environment();
    if (!env_off()) {
        say_once(std::string("a btMultiBodyDynamicsWorld solves its islands "
                             "with its own btMultiBodyConstraintSolver, "
                             "which the cone solver cannot replace; ") +
                 kOwnSolver);
    }
}

// The application installs another solver in a world this library
// attached to (ForkLiftDemo switches between solvers at run time): the
// world has dropped the cone's forwarding solver, so the plugin is
// detached and attached again over the new solver, with what the
// environment asks (a btMLCPSolver is then left in place, as at
// construction), and the line at attach says so.  This library's own
// calls (attach and detach swap the solver) find no registered world and
// pass through.
__attribute__((visibility("default"))) void RF_SET_SOLVER(void *self,
                                                          void *solver)
{
    static set_solver_fn real =
        (set_solver_fn)real_symbol(RF_STR(RF_SET_SOLVER));
    real(self, solver);
    rf_plugin *p = take(self);
    if (p == nullptr) {
        return;
    }
    rf_bullet_detach(p);
    if (!switch_env("ROLLFRIC_QUIET", false, false)) {
        std::fprintf(stderr, "rollfric: the application installed another "
                             "solver (setConstraintSolver): rollfric follows "
                             "it\n");
    }
    attach(self, nullptr);
}

__attribute__((visibility("default"))) void RF_DTOR_D1(void *self)
{
    static dtor_fn real = (dtor_fn)real_symbol(RF_STR(RF_DTOR_D1));
    detach(self);
    real(self);
}

__attribute__((visibility("default"))) void RF_DTOR_D2(void *self)
{
    static dtor_fn real = (dtor_fn)real_symbol(RF_STR(RF_DTOR_D2));
    detach(self);
    real(self);
}

__attribute__((visibility("default"))) void RF_DTOR_D0(void *self)
{
    static dtor_fn real = (dtor_fn)real_symbol(RF_STR(RF_DTOR_D0));
    detach(self);
    real(self);
}

} // extern "C"
