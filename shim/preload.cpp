// librollfric_preload.so: LD_PRELOAD=.../librollfric_preload.so ./app makes
// every btDiscreteDynamicsWorld the application constructs use the cone
// solver, without rebuilding the application (DESIGN §5).
//
// How: libBulletDynamics exports the world's complete-object constructor
// and destructors and is not linked -Bsymbolic, so definitions here, found
// first, are what the application (and the world's vtable) call.  Each
// hook calls the real function, found with dlsym(RTLD_NEXT).  Worlds
// constructed as btDiscreteDynamicsWorld itself (its C1 constructor) and
// as btDiscreteDynamicsWorldMt (the multithreaded world's C1: every island
// through the cone, docs/bullet.md) are attached; other subclasses
// (soft-body, the application's own) construct the base through C2 and
// are left alone.  Every world's destructor ends in the base's D2 (a
// subclass's destructor calls it), which detaches.
//
// Configuration: rf_bullet_config_default (sequential impulse, De Saxce,
// the world's iteration budget), then the environment: ROLLFRIC=off
// disables; ROLLFRIC_CONVERGED, ROLLFRIC_SOLVER, ROLLFRIC_MODEL,
// ROLLFRIC_ITERATIONS, ROLLFRIC_TOLERANCE, ROLLFRIC_THREADS
// (rf_bullet_config_from_env); ROLLFRIC_VERBOSE=1 prints a line a second;
// ROLLFRIC_RECORD=FILE records each world's run (rf_bullet_record_start,
// 60 frames per simulated second; the second world to FILE.2, ...), with
// ROLLFRIC=off too (the world then steps with its own solver), and
// ROLLFRIC_RECORD_CONTACTS=1 adds the contact points; a world never
// deleted has its recording ended at exit.
//
// This file includes no Bullet class header, so the hooks can be defined
// under the constructor's mangled names; worlds are opaque pointers here.
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
#define RF_DTOR_D0 _ZN23btDiscreteDynamicsWorldD0Ev
#define RF_DTOR_D1 _ZN23btDiscreteDynamicsWorldD1Ev
#define RF_DTOR_D2 _ZN23btDiscreteDynamicsWorldD2Ev
#define RF_STR2(x) #x
#define RF_STR(x) RF_STR2(x)

namespace {

// The worlds this library attached to.  A preload hook has no object to
// hang state on, so this one table is process-wide, behind a mutex.  At
// exit it ends the recordings of the worlds the program never deleted
// (rf_bullet_record_end: the end mark, no last frame, nothing read from
// the world, whose bodies may be gone), so that they read as complete.
// It is constructed during the first world's construction, so it is
// destroyed after every world with static storage.
struct Registry {
    std::mutex lock;
    std::vector<std::pair<void *, rf_plugin *>> worlds;
    ~Registry()
    {
        for (auto &w : worlds) {
            rf_error err;
            if (rf_bullet_record_end(w.second, &err) != RF_OK) {
                std::fprintf(stderr, "rollfric: ROLLFRIC_RECORD: %s\n",
                             err.message);
            }
        }
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

bool env_off()
{
    const char *v = std::getenv("ROLLFRIC");
    return v != nullptr &&
           (std::strcmp(v, "off") == 0 || std::strcmp(v, "0") == 0);
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
    const char *c = std::getenv("ROLLFRIC_RECORD_CONTACTS");
    const int contacts = c != nullptr && std::strcmp(c, "1") == 0;
    const std::string path = record_path(file, recorded++);
    rf_error err;
    if (rf_bullet_record_start(p, path.c_str(), 1.0 / 60, contacts, &err) !=
        RF_OK) {
        std::fprintf(stderr, "rollfric: ROLLFRIC_RECORD: %s\n", err.message);
    }
}

void attach(void *world, void *real_ctor)
{
    static bool warned = false;
    const char *rec = std::getenv("ROLLFRIC_RECORD");
    const bool record = rec != nullptr && *rec != '\0';
    if ((env_off() && !record) || !precision_matches(real_ctor)) {
        return;
    }
    rf_config cfg;
    rf_bullet_config_default(&cfg);
    rf_error err;
    if (rf_bullet_config_from_env(&cfg, &err) != RF_OK) {
        if (!warned) {
            std::fprintf(stderr, "rollfric: %s; rollfric is off\n",
                         err.message);
            warned = true;
        }
        return;
    }
    rf_plugin *p = rf_bullet_attach(
        static_cast<btDiscreteDynamicsWorld *>(world), &cfg, &err);
    if (p == nullptr) {
        std::fprintf(stderr, "rollfric: %s\n", err.message);
        return;
    }
    const char *v = std::getenv("ROLLFRIC_VERBOSE");
    rf_bullet_set_verbose(p, v != nullptr && std::strcmp(v, "0") != 0);
    if (env_off()) { // attached only to record: stock steps the world
        rf_bullet_set_mode(p, RF_BULLET_STOCK);
    }
    Registry &r = registry();
    std::lock_guard<std::mutex> g(r.lock);
    if (record) {
        start_recording(p, rec);
    }
    r.worlds.emplace_back(world, p);
}

void detach(void *world)
{
    rf_plugin *p = nullptr;
    {
        Registry &r = registry();
        std::lock_guard<std::mutex> g(r.lock);
        for (size_t i = 0; i < r.worlds.size(); ++i) {
            if (r.worlds[i].first == world) {
                p = r.worlds[i].second;
                r.worlds[i] = r.worlds.back();
                r.worlds.pop_back();
                break;
            }
        }
    }
    rf_bullet_detach(p); // before the real destructor frees the solver
}

using ctor_fn = void (*)(void *, void *, void *, void *, void *);
using ctor_mt_fn = void (*)(void *, void *, void *, void *, void *, void *);
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
