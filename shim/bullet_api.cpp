// The C API of rollfric_bullet.h: attach, detach, mode, config, stats,
// environment.
#include "cone_solver.hpp"
#include "env.hpp"
#include "recorder.hpp"

#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>

#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <new>
#include <string>
#include <typeinfo>

namespace {

rf_status fail(rf_error *err, rf_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

rf_status fail(rf_error *err, rf_status st, const char *fmt, ...)
{
    rf_error local;
    rf_error *e = err ? err : &local;
    e->status = st;
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    if (err == nullptr) {
        std::fprintf(stderr, "rollfric: %s\n", local.message);
    }
    return st;
}

// err (when given) cleared: the call succeeded.
rf_status succeed(rf_error *err)
{
    if (err) {
        err->status = RF_OK;
        err->message[0] = '\0';
    }
    return RF_OK;
}

// cfg, or the defaults for NULL, validated as rf_solve would, into *out.
// The caller's rf_config of size bytes as it was compiled (rollfric.h,
// "Binary compatibility") over the Bullet defaults: fields the caller
// does not know keep their defaults.
rf_status config_in(const char *fn, const rf_config *in, size_t size,
                    rf_config *full, rf_error *err)
{
    if (size == 0 || size > sizeof(rf_config)) {
        return fail(err, RF_ERR_INVALID,
                    "%s: the caller's rf_config has %zu bytes, this "
                    "library's %zu (built against a later rollfric header?)",
                    fn, size, sizeof(rf_config));
    }
    rf_bullet_config_default(full);
    std::memcpy(full, in, size);
    return RF_OK;
}

// The first size bytes of a struct the caller was compiled with.
template <class T> rf_status struct_out(T *out, size_t size, const T &full)
{
    if (size == 0 || size > sizeof(T)) {
        return RF_ERR_INVALID;
    }
    std::memcpy(out, &full, size);
    return RF_OK;
}

rf_status resolve_config(const char *fn, const rf_config *cfg, rf_config *out,
                         rf_error *err)
{
    rf_config c;
    rf_bullet_config_default(&c);
    if (cfg != nullptr) {
        rf_config check = *cfg; // the world's budget is resolved per step
        if (check.max_iter == RF_BULLET_WORLD_ITERATIONS) {
            check.max_iter = 1;
        }
        rf_error e;
        if (rf_config_validate(&check, &e) != RF_OK) {
            return fail(err, e.status, "%s: %s", fn, e.message);
        }
        // The first-order solvers at Bullet's budget
        // (5-10 iterations) do not carry stacks (Jacobi at 5 let 21 of the
        // 184 boxes of BenchmarkDemo's pyramid scene fall; APGD kept them
        // up but never let them sleep): refused, with what to do instead.
        if (cfg->max_iter == RF_BULLET_WORLD_ITERATIONS &&
            (cfg->solver == RF_SOLVER_JACOBI ||
             cfg->solver == RF_SOLVER_APGD)) {
            return fail(err, RF_ERR_INVALID,
                        "%s: %s at the world's iteration budget "
                        "(max_iter = RF_BULLET_WORLD_ITERATIONS) does not "
                        "hold Bullet's stacks; use RF_SOLVER_SI, or give "
                        "max_iter (and tol) for a converged solve "
                        "(rf_config_default)",
                        fn,
                        cfg->solver == RF_SOLVER_JACOBI ? "RF_SOLVER_JACOBI"
                                                        : "RF_SOLVER_APGD");
        }
        c = *cfg;
    }
    *out = c;
    return RF_OK;
}

const char *precision_name(int scalar_size)
{
    return scalar_size == 8 ? "double (bullet-float64)" : "float (bullet)";
}

} // namespace

namespace {
// ROLLFRIC_SOLVER and ROLLFRIC_MODEL into c (rf_bullet_config_from_env).
rf_status env_solver_model(rf_config &c, rf_error *err)
{
    const char *v;
    if ((v = std::getenv("ROLLFRIC_SOLVER")) != nullptr) {
        static const struct {
            const char *name;
            rf_solver_kind kind;
        } names[] = {{"jacobi", RF_SOLVER_JACOBI},
                     {"gs", RF_SOLVER_GS},
                     {"gs_colored", RF_SOLVER_GS_COLORED},
                     {"apgd", RF_SOLVER_APGD},
                     {"si", RF_SOLVER_SI}};
        bool found = false;
        for (const auto &n : names) {
            if (std::strcmp(v, n.name) == 0) {
                c.solver = n.kind;
                found = true;
            }
        }
        if (!found) {
            return fail(err, RF_ERR_INVALID,
                        "ROLLFRIC_SOLVER='%.40s' is not one of jacobi, gs, "
                        "gs_colored, apgd, si",
                        v);
        }
    }
    if ((v = std::getenv("ROLLFRIC_MODEL")) != nullptr) {
        if (std::strcmp(v, "associated") == 0) {
            c.model = RF_MODEL_ASSOCIATED;
        } else if (std::strcmp(v, "desaxce") == 0) {
            c.model = RF_MODEL_DESAXCE;
        } else {
            return fail(err, RF_ERR_INVALID,
                        "ROLLFRIC_MODEL='%.40s' is not one of associated, "
                        "desaxce",
                        v);
        }
    }
    return RF_OK;
}

// ROLLFRIC_ITERATIONS, ROLLFRIC_THREADS and ROLLFRIC_TOLERANCE into c.
rf_status env_budget(rf_config &c, rf_error *err)
{
    const char *v;
    auto parse_int = [&](const char *name, int lo, long hi,
                         int *out) -> rf_status {
        const char *s = std::getenv(name);
        if (s == nullptr) {
            return RF_OK;
        }
        char *end;
        errno = 0;
        long x = std::strtol(s, &end, 10);
        if (*s == '\0' || *end != '\0' || errno != 0 || x < lo || x > hi) {
            return fail(err, RF_ERR_INVALID,
                        "%s='%.40s' is not an integer from %d to %ld", name, s,
                        lo, hi);
        }
        *out = (int)x;
        return RF_OK;
    };
    int iters = -1;
    rf_status st = parse_int("ROLLFRIC_ITERATIONS", 1, 1000000000L, &iters);
    if (st == RF_OK) {
        st = parse_int("ROLLFRIC_THREADS", 0, RF_MAX_THREADS, &c.threads);
    }
    if (st != RF_OK) {
        return st;
    }
    if (iters > 0) {
        c.max_iter = iters;
        c.tol = 0.0; // exactly N iterations ...
    }
    if ((v = std::getenv("ROLLFRIC_TOLERANCE")) != nullptr) {
        char *end;
        double t = std::strtod(v, &end);
        if (*v == '\0' || *end != '\0' || !(t >= 0.0 && t < 1.0)) {
            // 1 and more: relative, met by zero impulses (rf_config.tol)
            return fail(err, RF_ERR_INVALID,
                        "ROLLFRIC_TOLERANCE='%.40s' is not a number in [0, 1)",
                        v);
        }
        c.tol = t; // ... unless a tolerance is given too
    }
    return RF_OK;
}
} // namespace

namespace {
// The plugin's solver installed in world with the resolved config c
// (rf_bullet_attach); NULL with err set when the world already has one,
// has none, or memory runs out.
rf_plugin *install(btDiscreteDynamicsWorld *world, const rf_config &c,
                   rf_error *err)
{
    btConstraintSolver *btDiscreteDynamicsWorld::*solver_m =
        rfshim::WorldAccess::solver_member();
    bool btDiscreteDynamicsWorld::*owns_m = rfshim::WorldAccess::owns_member();
    btConstraintSolver *prev = world->*solver_m;
    if (dynamic_cast<rfshim::WorldSolver *>(prev) != nullptr) {
        fail(err, RF_ERR_STATE,
             "rf_bullet_attach: this world already has rollfric attached");
        return nullptr;
    }
    if (prev == nullptr) {
        fail(err, RF_ERR_STATE, "rf_bullet_attach: the world has no solver");
        return nullptr;
    }
    // A multibody world keeps its btMultiBodyConstraintSolver for its
    // islands (its setConstraintSolver takes a solver of another type
    // only as the world's, which then solves nothing): attaching would
    // succeed and change nothing.
    if (dynamic_cast<btMultiBodyDynamicsWorld *>(world) != nullptr) {
        fail(err, RF_ERR_STATE,
             "rf_bullet_attach: the world is a btMultiBodyDynamicsWorld, "
             "whose islands its own btMultiBodyConstraintSolver solves; the "
             "cone solver cannot take its place (multibodies are not "
             "modelled): use a btDiscreteDynamicsWorld");
        return nullptr;
    }
    rf_plugin *p = new (std::nothrow) rf_plugin{nullptr, nullptr, false};
    rfshim::ConeSolver *s =
        p ? new (std::nothrow)
                rfshim::ConeSolver(world, prev, world->*owns_m, c)
          : nullptr;
    // The world frees an owned solver with btAlignedFree: allocate what it
    // will own the same way.
    void *mem = s ? btAlignedAlloc(sizeof(rfshim::WorldSolver), 16) : nullptr;
    if (s == nullptr || !s->ok() || mem == nullptr) {
        btAlignedFree(mem);
        delete s;
        delete p;
        fail(err, RF_ERR_NOMEM, "rf_bullet_attach: out of memory");
        return nullptr;
    }
    p->solver = s;
    // An application that installed btMLCPSolver or btNNCGConstraintSolver
    // chose accuracy over speed.  At the world's iteration budget the cone
    // solver does not give it (docs/bullet.md, "Solvers the application
    // chose": a 350 kg load on a 5 kg fork sinks 0.23 m where MLCP lifts
    // it 0.83 m): the world is left to its solver (stock mode), unless the
    // configuration asks for a budget of its own (a converged solve,
    // which lifts it 0.91 m).
    const btConstraintSolverType type = prev->getSolverType();
    if ((type == BT_MLCP_SOLVER || type == BT_NNCG_SOLVER) &&
        c.max_iter == RF_BULLET_WORLD_ITERATIONS) {
        s->mode = RF_BULLET_STOCK;
        s->accurate_stock = true;
    }
    p->installed = new (mem) rfshim::WorldSolver(p);
    // setConstraintSolver() frees a solver the world owns (and also points
    // the island callback at the new one): clear the ownership first so
    // the previous solver survives for detach and RF_BULLET_STOCK.  Then
    // the world owns the forwarding solver: deleting the world while
    // attached destroys it, which tells the plugin (rf_plugin.world_gone).
    world->*owns_m = false;
    world->setConstraintSolver(p->installed);
    world->*owns_m = true;
    // A btDiscreteDynamicsWorldMt gives the islands of at least
    // btSequentialImpulseConstraintSolverMt::
    // s_minimumContactManifoldsForBatching (250) manifolds to its
    // constraintSolverMt when it has one, the rest to its solver pool
    // (m_constraintSolver, now the plugin's): set the former aside while
    // attached, and every island goes through the cone (RF_BULLET_STOCK:
    // through the pool).
    if (auto *mt = dynamic_cast<btDiscreteDynamicsWorldMt *>(world)) {
        btConstraintSolver *btDiscreteDynamicsWorldMt::*mt_m =
            rfshim::WorldMtAccess::solver_mt_member();
        p->solver_mt = mt->*mt_m;
        mt->*mt_m = nullptr;
    }
    return p;
}
} // namespace

extern "C" {

rf_status rf_bullet_config_default_sized(rf_config *cfg, size_t size)
{
    if (cfg == nullptr) {
        return RF_ERR_NULL;
    }
    rf_config c;
    rf_config_default(&c);
    c.solver = RF_SOLVER_SI;
    c.model = RF_MODEL_DESAXCE;
    c.max_iter = RF_BULLET_WORLD_ITERATIONS;
    c.tol = RF_BULLET_DEFAULT_TOL;
    c.residual = 0; // SI stops on the impulse change; no extra pass
    return struct_out(cfg, size, c);
}

rf_status rf_bullet_config_converged_sized(rf_config *cfg, size_t size)
{
    if (cfg == nullptr) {
        return RF_ERR_NULL;
    }
    rf_config c;
    rf_config_default(&c);
    c.model = RF_MODEL_DESAXCE; // no dilatancy: nothing hops off a slope
    return struct_out(cfg, size, c);
}

int rf_bullet_scalar_size(void)
{
    return (int)sizeof(btScalar);
}

rf_plugin *rf_bullet_attach_checked(btDiscreteDynamicsWorld *world,
                                    const rf_config *cfg_in, size_t cfg_size,
                                    int scalar_size, rf_error *err)
{
    if (world == nullptr) {
        fail(err, RF_ERR_NULL, "rf_bullet_attach: world is NULL");
        return nullptr;
    }
    if (scalar_size != (int)sizeof(btScalar)) {
        fail(err, RF_ERR_INVALID,
             "rf_bullet_attach: the caller was compiled for %s Bullet but "
             "this library is built for %s; link %s instead",
             precision_name(scalar_size), precision_name(sizeof(btScalar)),
             scalar_size == 8 ? "librollfric-float64.so (pkg-config "
                                "rollfric-float64)"
                              : "librollfric.so (pkg-config rollfric)");
        return nullptr;
    }
    rf_config full, c;
    const rf_config *cfg = nullptr;
    if (cfg_in != nullptr) {
        if (config_in("rf_bullet_attach", cfg_in, cfg_size, &full, err) !=
            RF_OK) {
            return nullptr;
        }
        cfg = &full;
    }
    if (resolve_config("rf_bullet_attach", cfg, &c, err) != RF_OK) {
        return nullptr;
    }
    rf_plugin *p = install(world, c, err);
    if (p == nullptr) {
        return nullptr;
    }
    succeed(err);
    return p;
}

rf_status rf_bullet_record_start(rf_plugin *p, const char *path,
                                 double frame_interval, int contacts,
                                 rf_error *err)
{
    static const char fn[] = "rf_bullet_record_start";
    if (p == nullptr || path == nullptr) {
        return fail(err, RF_ERR_NULL, "%s: %s is NULL", fn,
                    p == nullptr ? "p" : "path");
    }
    if (p->recorder != nullptr || p->world_gone) {
        return fail(err, RF_ERR_STATE, "%s: %s", fn,
                    p->world_gone ? "the world is gone"
                                  : "a recording is already open");
    }
    if (p->names == nullptr) { // the recorder reads the names from here on
        p->names = new (std::nothrow) rfshim::BodyNames;
        if (p->names == nullptr) {
            return fail(err, RF_ERR_NOMEM, "%s: out of memory", fn);
        }
        p->solver->names = p->names;
    }
    p->recorder = rfshim::Recorder::open(p->solver->world, p->names, path,
                                         frame_interval, contacts, err);
    return p->recorder != nullptr ? RF_OK : err ? err->status : RF_ERR_IO;
}

namespace {

// Closes p's open recording (RF_OK when none is open): with the last
// frame (rf_bullet_record_stop) or without reading the world
// (rf_bullet_record_end).
rf_status finish_recording(rf_plugin *p, bool last_frame, const char *fn,
                           rf_error *err)
{
    if (p == nullptr) {
        return fail(err, RF_ERR_NULL, "%s: p is NULL", fn);
    }
    succeed(err);
    if (p->recorder == nullptr) {
        return RF_OK;
    }
    const rf_status st =
        last_frame ? p->recorder->close(p, err) : p->recorder->end(err);
    delete p->recorder;
    p->recorder = nullptr;
    return st;
}

} // namespace

rf_status rf_bullet_record_stop(rf_plugin *p, rf_error *err)
{
    return finish_recording(p, true, "rf_bullet_record_stop", err);
}

rf_status rf_bullet_record_end(rf_plugin *p, rf_error *err)
{
    return finish_recording(p, false, "rf_bullet_record_end", err);
}

rf_status rf_bullet_record_name(rf_plugin *p, const btCollisionObject *body,
                                const char *name, rf_error *err)
{
    static const char fn[] = "rf_bullet_record_name";
    if (p == nullptr || body == nullptr || name == nullptr) {
        return fail(err, RF_ERR_NULL, "%s: %s is NULL", fn,
                    p == nullptr      ? "p"
                    : body == nullptr ? "body"
                                      : "name");
    }
    if (p->world_gone) {
        return fail(err, RF_ERR_STATE, "%s: the world is gone", fn);
    }
    if (p->names == nullptr) {
        p->names = new (std::nothrow) rfshim::BodyNames;
        if (p->names == nullptr) {
            return fail(err, RF_ERR_NOMEM, "%s: out of memory", fn);
        }
        p->solver->names = p->names;
    }
    bool changed = false;
    rf_status st;
    try {
        st = p->names->set(p->solver->world, body, name, &changed, err);
    } catch (const std::bad_alloc &) {
        return fail(err, RF_ERR_NOMEM, "%s: out of memory", fn);
    }
    if (st == RF_OK && changed && p->recorder != nullptr) {
        p->recorder->renamed(body);
    }
    return st;
}

void rf_bullet_detach(rf_plugin *p)
{
    if (p == nullptr) {
        return;
    }
    rf_bullet_record_stop(p, nullptr); // the world is still whole
    rfshim::ConeSolver *s = p->solver;
    if (!p->world_gone) {
        btDiscreteDynamicsWorld *world = s->world;
        if (auto *mt = dynamic_cast<btDiscreteDynamicsWorldMt *>(world)) {
            mt->*rfshim::WorldMtAccess::solver_mt_member() = p->solver_mt;
        }
        btConstraintSolver *btDiscreteDynamicsWorld::*solver_m =
            rfshim::WorldAccess::solver_member();
        bool btDiscreteDynamicsWorld::*owns_m =
            rfshim::WorldAccess::owns_member();
        if (world->*solver_m == p->installed) {
            // not owned for the swap: setConstraintSolver would free the
            // forwarding solver without running its destructor
            world->*owns_m = false;
            world->setConstraintSolver(s->stock);
            world->*owns_m = s->owned_stock;
            p->installed->plugin = nullptr;
            p->installed->~WorldSolver();
            btAlignedFree(p->installed);
        } else if (s->owned_stock) {
            // the application installed another solver meanwhile (the
            // world freed our forwarding solver, which owns nothing): the
            // world's previous solver is no longer reachable from it
            s->stock->~btConstraintSolver();
            btAlignedFree(s->stock);
        }
    } // else: the world was deleted; WorldSolver's destructor freed what
      // the world would have (ConeSolver::world_deleted)
    if (!p->world_gone) {
        s->materials.restore(s->world); // the bodies' own values back
    }
    s->strip_point_states();
    delete s;
    delete p->names;
    delete p;
}

rf_status rf_bullet_stats_sized(const rf_plugin *p, rf_stats *out, size_t size)
{
    if (p == nullptr || out == nullptr) {
        return RF_ERR_NULL;
    }
    return struct_out(out, size, p->solver->last);
}

rf_status rf_bullet_timing_get(const rf_plugin *p, rf_bullet_timing *out)
{
    if (p == nullptr || out == nullptr) {
        return RF_ERR_NULL;
    }
    *out = p->solver->timing;
    return RF_OK;
}

rf_status rf_bullet_steps(const rf_plugin *p, long *out)
{
    if (p == nullptr || out == nullptr) {
        return RF_ERR_NULL;
    }
    *out = p->solver->steps;
    return RF_OK;
}

rf_status rf_bullet_set_mode(rf_plugin *p, rf_bullet_mode mode)
{
    if (p == nullptr) {
        return RF_ERR_NULL;
    }
    if (mode != RF_BULLET_CONE && mode != RF_BULLET_STOCK) {
        return RF_ERR_INVALID;
    }
    p->solver->mode = mode;
    return RF_OK;
}

rf_status rf_bullet_get_mode(const rf_plugin *p, rf_bullet_mode *out)
{
    if (p == nullptr || out == nullptr) {
        return RF_ERR_NULL;
    }
    *out = p->solver->mode;
    return RF_OK;
}

rf_status rf_bullet_set_config_sized(rf_plugin *p, const rf_config *cfg,
                                     size_t size, rf_error *err)
{
    static const char fn[] = "rf_bullet_set_config";
    if (p == nullptr) {
        return fail(err, RF_ERR_NULL, "rf_bullet_set_config: p is NULL");
    }
    if (cfg == nullptr) {
        return resolve_config(fn, nullptr, &p->solver->cfg, err);
    }
    rf_config full;
    const rf_status st = config_in(fn, cfg, size, &full, err);
    return st == RF_OK ? resolve_config(fn, &full, &p->solver->cfg, err) : st;
}

rf_status rf_bullet_get_config_sized(const rf_plugin *p, rf_config *out,
                                     size_t size)
{
    if (p == nullptr || out == nullptr) {
        return RF_ERR_NULL;
    }
    return struct_out(out, size, p->solver->cfg);
}

rf_status rf_bullet_set_max_recovery(rf_plugin *p, double speed)
{
    if (p == nullptr) {
        return RF_ERR_NULL;
    }
    if (!(speed > 0.0) || !std::isfinite(speed)) {
        return RF_ERR_INVALID;
    }
    p->solver->max_recovery = speed;
    return RF_OK;
}

rf_status rf_bullet_set_default_friction(rf_plugin *p, double rolling,
                                         double spinning)
{
    if (p == nullptr) {
        return RF_ERR_NULL;
    }
    if (!std::isfinite(rolling) || !std::isfinite(spinning)) {
        return RF_ERR_NONFINITE;
    }
    if (rolling < 0.0 || spinning < 0.0) {
        return RF_ERR_INVALID;
    }
    p->solver->default_rolling = rolling;
    p->solver->default_spinning = spinning;
    return RF_OK;
}

rf_status rf_bullet_get_default_friction(const rf_plugin *p, double *rolling,
                                         double *spinning)
{
    if (p == nullptr || rolling == nullptr || spinning == nullptr) {
        return RF_ERR_NULL;
    }
    *rolling = p->solver->default_rolling;
    *spinning = p->solver->default_spinning;
    return RF_OK;
}

namespace {
using ForceMap =
    std::unordered_map<const btCollisionObject *, rfshim::ObjectForce>;

// A per-object force (cohesion, yield) in N: 0 removes the entry.
rf_status set_object_force(ForceMap rfshim::ConeSolver::*map, rf_plugin *p,
                           const btCollisionObject *obj, double force)
{
    if (p == nullptr || obj == nullptr) {
        return RF_ERR_NULL;
    }
    if (!std::isfinite(force)) {
        return RF_ERR_NONFINITE;
    }
    if (force < 0.0) {
        return RF_ERR_INVALID;
    }
    ForceMap &m = p->solver->*map;
    if (force == 0.0) {
        m.erase(obj);
    } else {
        m[obj] = rfshim::ObjectForce{force, rfshim::ObjectForce::id_of(obj)};
    }
    return RF_OK;
}

rf_status get_object_force(ForceMap rfshim::ConeSolver::*map,
                           const rf_plugin *p, const btCollisionObject *obj,
                           double *out)
{
    if (p == nullptr || obj == nullptr || out == nullptr) {
        return RF_ERR_NULL;
    }
    const ForceMap &m = p->solver->*map;
    const auto it = m.find(obj);
    // an entry left by an object deleted before a cone step could prune
    // it is not obj's
    *out =
        it == m.end() || !it->second.same_object(obj) ? 0.0 : it->second.force;
    return RF_OK;
}
} // namespace

rf_status rf_bullet_set_cohesion(rf_plugin *p, const btCollisionObject *obj,
                                 double force)
{
    return set_object_force(&rfshim::ConeSolver::cohesion, p, obj, force);
}

rf_status rf_bullet_get_cohesion(const rf_plugin *p,
                                 const btCollisionObject *obj, double *out)
{
    return get_object_force(&rfshim::ConeSolver::cohesion, p, obj, out);
}

rf_status rf_bullet_set_yield(rf_plugin *p, const btCollisionObject *obj,
                              double force)
{
    return set_object_force(&rfshim::ConeSolver::yield, p, obj, force);
}

rf_status rf_bullet_get_yield(const rf_plugin *p, const btCollisionObject *obj,
                              double *out)
{
    return get_object_force(&rfshim::ConeSolver::yield, p, obj, out);
}

rf_status rf_bullet_get_warning(const rf_plugin *p, rf_bullet_warning kind,
                                rf_bullet_warning_info *out)
{
    if (p == nullptr || out == nullptr) {
        return RF_ERR_NULL;
    }
    if ((int)kind < 0 || (int)kind >= (int)RF_BULLET_WARN_COUNT) {
        return RF_ERR_RANGE;
    }
    *out = p->solver->warnings[kind];
    return RF_OK;
}

rf_status rf_bullet_clear_warnings(rf_plugin *p)
{
    if (p == nullptr) {
        return RF_ERR_NULL;
    }
    for (rf_bullet_warning_info &w : p->solver->warnings) {
        w = rf_bullet_warning_info{};
    }
    return RF_OK;
}

rf_status rf_bullet_set_warning_callback(rf_plugin *p, rf_bullet_warning_fn fn,
                                         void *user)
{
    if (p == nullptr) {
        return RF_ERR_NULL;
    }
    p->solver->warning_fn = fn;
    p->solver->warning_user = user;
    return RF_OK;
}

void rf_bullet_set_verbose(rf_plugin *p, int verbose)
{
    if (p) {
        p->solver->verbose = verbose;
    }
}

rf_status rf_bullet_point_impulse(const rf_plugin *p,
                                  const btManifoldPoint *point, double out[6])
{
    if (p == nullptr || point == nullptr || out == nullptr) {
        return RF_ERR_NULL;
    }
    const double *g = p->solver->point_impulse(point);
    if (g == nullptr) {
        return RF_ERR_RANGE;
    }
    std::memcpy(out, g, 6 * sizeof(double));
    return RF_OK;
}

rf_status rf_bullet_point_carried(const rf_plugin *p,
                                  const btManifoldPoint *point,
                                  rf_bullet_carried *out)
{
    if (p == nullptr || point == nullptr || out == nullptr) {
        return RF_ERR_NULL;
    }
    *out = rf_bullet_carried{};
    const rfshim::PointState *st = p->solver->point_state(*point);
    if (st == nullptr) {
        return point->m_userPersistentData != nullptr ? RF_ERR_STATE : RF_OK;
    }
    out->indentation = st->plastic;
    out->spin = st->spin;
    std::memcpy(out->roll, st->roll, sizeof out->roll);
    return RF_OK;
}

} // extern "C"

namespace {

// The C++ class of an object, demangled ("btDiscreteDynamicsWorld").
template <class T> std::string class_name(const T &obj)
{
    const char *mangled = typeid(obj).name();
    int status = 0;
    char *d = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    std::string out = status == 0 && d != nullptr ? d : mangled;
    std::free(d);
    return out;
}

const char *solver_name(rf_solver_kind k)
{
    switch (k) {
    case RF_SOLVER_JACOBI: return "projected Jacobi";
    case RF_SOLVER_GS: return "block Gauss-Seidel";
    case RF_SOLVER_GS_COLORED: return "coloured block Gauss-Seidel";
    case RF_SOLVER_APGD: return "APGD";
    case RF_SOLVER_SI: return "sequential impulse";
    }
    return "?";
}

const char *model_name(rf_model m)
{
    switch (m) {
    case RF_MODEL_ASSOCIATED: return "associated";
    case RF_MODEL_DESAXCE: return "De Saxce";
    case RF_MODEL_PYRAMID: return "pyramid";
    }
    return "?";
}

} // namespace

extern "C" {

rf_status rf_bullet_describe(const rf_plugin *p, char *buf, size_t size)
{
    if (p == nullptr || buf == nullptr) {
        return RF_ERR_NULL;
    }
    if (size == 0) {
        return RF_ERR_INVALID;
    }
    const rfshim::ConeSolver *s = p->solver;
    if (p->world_gone || s->world == nullptr) {
        std::snprintf(buf, size, "the world is gone");
        return RF_OK;
    }
    const rf_config &c = s->cfg;
    char budget[96];
    if (c.max_iter == RF_BULLET_WORLD_ITERATIONS) {
        std::snprintf(budget, sizeof budget,
                      "the world's %d iterations, tolerance %g",
                      s->world->getSolverInfo().m_numIterations, c.tol);
    } else {
        std::snprintf(budget, sizeof budget,
                      "up to %d iteration%s, tolerance %g", c.max_iter,
                      c.max_iter == 1 ? "" : "s", c.tol);
    }
    char threads[48];
    if (c.threads > 0) {
        std::snprintf(threads, sizeof threads, "%d thread%s", c.threads,
                      c.threads == 1 ? "" : "s");
    } else {
        std::snprintf(threads, sizeof threads, "threads chosen per step");
    }
    char defaults[128] = "";
    if (s->default_rolling > 0.0 || s->default_spinning > 0.0) {
        char roll[48] = "", spin[48] = "";
        if (s->default_rolling > 0.0) {
            std::snprintf(roll, sizeof roll, "rolling friction %g m",
                          s->default_rolling);
        }
        if (s->default_spinning > 0.0) {
            std::snprintf(spin, sizeof spin, "spinning friction %g m",
                          s->default_spinning);
        }
        std::snprintf(defaults, sizeof defaults,
                      "; where Bullet gives none: %s%s%s", roll,
                      roll[0] != '\0' && spin[0] != '\0' ? ", " : "", spin);
    }
    if (!s->materials.empty()) {
        const size_t used = std::strlen(defaults);
        std::snprintf(defaults + used, sizeof defaults - used,
                      "; materials: %zu rule%s", s->materials.rule_count(),
                      s->materials.rule_count() == 1 ? "" : "s");
    }
    const std::string world = class_name(*s->world);
    const std::string prev =
        s->stock != nullptr ? class_name(*s->stock) : std::string("none");
    const char *fmt =
        s->mode == RF_BULLET_CONE ? "%s: %s replaced by the cone solver (%s, "
                                    "%s model, %s, %s%s)"
        : s->accurate_stock
            ? "%s: %s left in place: the application chose it for accuracy, "
              "which the cone solver at the world's iteration budget does "
              "not give; ROLLFRIC_CONVERGED=1 replaces it with a converged "
              "cone solve (stock mode; the cone solver: %s, %s model, %s, "
              "%s%s)"
            : "%s: %s steps it (stock mode; the cone solver when switched "
              "on: %s, %s model, %s, %s%s)";
    std::snprintf(buf, size, fmt, world.c_str(), prev.c_str(),
                  solver_name(c.solver), model_name(c.model), budget, threads,
                  defaults);
    return RF_OK;
}

rf_status rf_bullet_load_materials(rf_plugin *p, const char *path,
                                   rf_error *err)
{
    static const char fn[] = "rf_bullet_load_materials";
    if (p == nullptr || path == nullptr) {
        return fail(err, RF_ERR_NULL, "%s: %s is NULL", fn,
                    p == nullptr ? "p" : "path");
    }
    if (p->world_gone) {
        return fail(err, RF_ERR_STATE, "%s: the world is gone", fn);
    }
    rfshim::Materials m;
    rf_error e;
    rf_status st;
    try {
        st = m.load(path, &e);
    } catch (const std::bad_alloc &) {
        return fail(err, RF_ERR_NOMEM, "%s: out of memory", fn);
    }
    if (st != RF_OK) {
        return fail(err, st, "%s", e.message);
    }
    // the last file's values leave the bodies before the new file's come
    p->solver->materials.restore(p->solver->world);
    p->solver->materials = std::move(m);
    return succeed(err);
}

rf_status rf_bullet_apply_env(rf_plugin *p, rf_error *err)
{
    static const char fn[] = "rf_bullet_apply_env";
    if (p == nullptr) {
        return fail(err, RF_ERR_NULL, "%s: p is NULL", fn);
    }
    double rolling = p->solver->default_rolling;
    double spinning = p->solver->default_spinning;
    bool given;
    std::string msg;
    if (!rfshim::env::length_var("ROLLFRIC_ROLLING_FRICTION", &rolling, &given,
                                 &msg) ||
        !rfshim::env::length_var("ROLLFRIC_SPINNING_FRICTION", &spinning,
                                 &given, &msg)) {
        return fail(err, RF_ERR_INVALID, "%s", msg.c_str());
    }
    const char *file = std::getenv("ROLLFRIC_MATERIALS");
    if (file != nullptr) {
        rf_error e;
        if (rf_bullet_load_materials(p, file, &e) != RF_OK) {
            return fail(err, e.status, "ROLLFRIC_MATERIALS: %s", e.message);
        }
    }
    p->solver->default_rolling = rolling;
    p->solver->default_spinning = spinning;
    return succeed(err);
}

rf_status rf_bullet_config_from_env_sized(rf_config *cfg, size_t size,
                                          rf_error *err)
{
    static const char fn[] = "rf_bullet_config_from_env";
    if (cfg == nullptr) {
        return fail(err, RF_ERR_NULL, "rf_bullet_config_from_env: cfg is NULL");
    }
    rf_config c;
    const rf_status in = config_in(fn, cfg, size, &c, err);
    if (in != RF_OK) {
        return in;
    }
    bool converged = false;
    std::string msg;
    if (!rfshim::env::switch_var("ROLLFRIC_CONVERGED", false, &converged,
                                 &msg)) {
        return fail(err, RF_ERR_INVALID, "%s", msg.c_str());
    }
    if (converged) {
        rf_bullet_config_converged(&c);
    }
    rf_status st = env_solver_model(c, err);
    if (st == RF_OK) {
        st = env_budget(c, err);
    }
    if (st != RF_OK) {
        return st;
    }
    std::memcpy(cfg, &c, size);
    return succeed(err);
}

} // extern "C"
