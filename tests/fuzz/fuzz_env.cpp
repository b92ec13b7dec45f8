// Fuzz target over the LD_PRELOAD library's environment: random ROLLFRIC_*
// values, then a Bullet application stepped 20 times.  Run with
// librollfric_preload.so in LD_PRELOAD (ctest fuzz_env does), so that the
// world's constructor is the preload's, exactly as in an application.
//
// Input: text, one NAME=VALUE per line.  A line whose NAME does not start
// with ROLLFRIC_ (or is not the bare ROLLFRIC) is skipped, as is
// ROLLFRIC_RECORD (it writes files) and a budget that would only measure
// patience (ROLLFRIC_ITERATIONS above 10,000, ROLLFRIC_THREADS above 64;
// both bounds are checked by the preload's own test).  Unknown ROLLFRIC_*
// names are set: the preload must name them and go on.
//
// The scene: a ground plane, a ball (R = 0.5 m, 1 kg, rolling friction
// 0.02 m) launched rolling at 2 m/s, and a stack of three 1 m boxes.
// The oracle: the run does not crash, and its physics is either stock's
// or the cone's:
//   - the preload did not take the world (its solver is the one the
//     application gave): every body's final state is bit for bit the state
//     of the same scene with ROLLFRIC=off (a refusal leaves nothing behind);
//   - it took the world: every state is finite, no body's centre is below
//     the ground (a step that applied no contact impulse drops the stack
//     1.1 m in 20 steps), and the total energy (kinetic + potential) has
//     not grown by more than 0.05 J (no energy from nowhere: stock's
//     grows by less than 1 mJ here, Baumgarte's push on boxes placed in
//     contact).
#include "env.hpp"

#include <btBulletDynamicsCommon.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern char **environ;

namespace {

long g_taken = 0, g_stock = 0; // runs of each kind, for the driver's line

[[noreturn]] void violation(const char *what, const std::string &input)
{
    std::fprintf(stderr, "fuzz_env: oracle violation: %s\ninput:\n%s\n", what,
                 input.c_str());
    std::abort();
}

// Removes every ROLLFRIC_* variable (collected first: unsetenv changes
// environ under the loop).
void clear_rollfric()
{
    std::vector<std::string> names;
    for (char **e = environ; *e != nullptr; ++e) {
        const char *eq = std::strchr(*e, '=');
        if (eq != nullptr && std::strncmp(*e, "ROLLFRIC", 8) == 0) {
            names.emplace_back(*e, (size_t)(eq - *e));
        }
    }
    for (const std::string &n : names) {
        unsetenv(n.c_str());
    }
}

struct Body {
    double state[13]; // position, quaternion, linear and angular velocity
};

struct Outcome {
    bool taken = false; // the preload replaced the application's solver
    std::vector<Body> bodies;
    double e0 = 0, e1 = 0; // total energy at the start and the end, J
    double lowest = 0;     // the lowest body centre at the end, m
};

double energy(const btDiscreteDynamicsWorld &w)
{
    double e = 0;
    for (int i = 0; i < w.getNumCollisionObjects(); ++i) {
        const btRigidBody *b =
            btRigidBody::upcast(w.getCollisionObjectArray()[i]);
        if (b == nullptr || b->getInvMass() == 0) {
            continue;
        }
        const double m = 1.0 / b->getInvMass();
        const btVector3 v = b->getLinearVelocity();
        const btVector3 om = b->getAngularVelocity();
        const btVector3 Iw = b->getInvInertiaTensorWorld().inverse() * om;
        e += 0.5 * m * v.dot(v) + 0.5 * om.dot(Iw) +
             m * 9.81 * b->getCenterOfMassPosition().y();
    }
    return e;
}

// The application: built, stepped 20 times at 1/60 s, torn down.
Outcome run_app()
{
    Outcome o;
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher(&config);
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &config);
    o.taken = world.getConstraintSolver() != &solver;
    world.setGravity(btVector3(0, -9.81, 0));

    btStaticPlaneShape plane(btVector3(0, 1, 0), 0);
    btRigidBody ground(0, nullptr, &plane);
    ground.setFriction(1.0);
    world.addRigidBody(&ground);

    btSphereShape sphere(0.5);
    btVector3 ball_inertia;
    sphere.calculateLocalInertia(1.0, ball_inertia);
    btDefaultMotionState ball_state(
        btTransform(btQuaternion::getIdentity(), btVector3(0, 0.5, 0)));
    btRigidBody ball(1.0, &ball_state, &sphere, ball_inertia);
    ball.setFriction(1.0);
    ball.setRollingFriction(0.02);
    ball.setLinearVelocity(btVector3(2, 0, 0));
    ball.setAngularVelocity(btVector3(0, 0, -4)); // rolling: w R = -v
    world.addRigidBody(&ball);

    btBoxShape cube(btVector3(0.5, 0.5, 0.5));
    btVector3 box_inertia;
    cube.calculateLocalInertia(1.0, box_inertia);
    std::vector<btDefaultMotionState> box_states;
    box_states.reserve(3);
    std::vector<btRigidBody *> boxes;
    for (int i = 0; i < 3; ++i) {
        box_states.emplace_back(btTransform(btQuaternion::getIdentity(),
                                            btVector3(-3, 0.5 + i, 0)));
        boxes.push_back(
            new btRigidBody(1.0, &box_states.back(), &cube, box_inertia));
        boxes.back()->setFriction(0.5);
        world.addRigidBody(boxes.back());
    }
    o.e0 = energy(world);
    for (int s = 0; s < 20; ++s) {
        world.stepSimulation(1.0 / 60, 1, 1.0 / 60);
    }
    o.e1 = energy(world);
    o.lowest = INFINITY;
    for (int i = 1; i < world.getNumCollisionObjects(); ++i) {
        const btRigidBody *b =
            btRigidBody::upcast(world.getCollisionObjectArray()[i]);
        const btTransform &x = b->getWorldTransform();
        const btQuaternion q = x.getRotation();
        const btVector3 p = x.getOrigin(), v = b->getLinearVelocity(),
                        w = b->getAngularVelocity();
        Body body = {{p.x(), p.y(), p.z(), q.x(), q.y(), q.z(), q.w(), v.x(),
                      v.y(), v.z(), w.x(), w.y(), w.z()}};
        o.bodies.push_back(body);
        o.lowest = std::fmin(o.lowest, p.y());
    }
    for (btRigidBody *b : boxes) {
        world.removeRigidBody(b);
        delete b;
    }
    world.removeRigidBody(&ball);
    world.removeRigidBody(&ground);
    return o;
}

// Stock's outcome: the scene with rollfric switched off, once.
const Outcome &stock()
{
    static const Outcome s = [] {
        clear_rollfric();
        setenv("ROLLFRIC", "off", 1);
        Outcome o = run_app();
        clear_rollfric();
        return o;
    }();
    return s;
}

bool same_bits(const Outcome &a, const Outcome &b)
{
    return a.bodies.size() == b.bodies.size() &&
           std::memcmp(a.bodies.data(), b.bodies.data(),
                       a.bodies.size() * sizeof(Body)) == 0;
}

// Whether line NAME=VALUE is set (see the top), and if so sets it.
void set_line(const std::string &line)
{
    const size_t eq = line.find('=');
    if (eq == std::string::npos || eq == 0) {
        return;
    }
    const std::string name = line.substr(0, eq), value = line.substr(eq + 1);
    if (name != "ROLLFRIC" && name.compare(0, 9, "ROLLFRIC_") != 0) {
        return;
    }
    for (char c : name) {
        if (!(std::isupper((unsigned char)c) ||
              std::isdigit((unsigned char)c) || c == '_')) {
            return; // no name a shell could export
        }
    }
    if (name == "ROLLFRIC_RECORD") {
        return;
    }
    char *end = nullptr;
    const double n = std::strtod(value.c_str(), &end);
    const bool number = !value.empty() && *end == '\0';
    if (number && ((name == "ROLLFRIC_ITERATIONS" && n > 10000) ||
                   (name == "ROLLFRIC_THREADS" && n > 64))) {
        return;
    }
    setenv(name.c_str(), value.c_str(), 1);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const Outcome &ref = stock();
    // NUL ends a value, as in a real environment
    std::string input(reinterpret_cast<const char *>(data), size);
    input = input.substr(0, input.find('\0'));
    clear_rollfric();
    setenv("ROLLFRIC_QUIET", "1", 1); // unless the input says otherwise
    std::istringstream lines(input);
    for (std::string line; std::getline(lines, line);) {
        set_line(line);
    }
    const Outcome o = run_app();
    clear_rollfric();
    ++(o.taken ? g_taken : g_stock);
    if (!o.taken) {
        if (!same_bits(o, ref)) {
            violation("not taken, yet not stock's physics", input);
        }
        return 0;
    }
    for (const Body &b : o.bodies) {
        for (double x : b.state) {
            if (!std::isfinite(x)) {
                violation("a body's state is not finite", input);
            }
        }
    }
    if (!(o.lowest > 0.0)) {
        violation("a body fell through the ground", input);
    }
    if (!(o.e1 <= o.e0 + 0.05)) {
        violation("energy from nowhere", input);
    }
    return 0;
}

#ifndef RF_LIBFUZZER
// Values a user might type, right or wrong: switches in every spelling,
// numbers at and past every bound, words, empty and long strings.
static const char *const kValues[] = {
    "",           "0",       "1",       "-1",
    "off",        "OFF",     "On",      "yes",
    "No",         "false",   "TRUE",    "maybe",
    "2",          "10",      "64",      "100",
    "10000",      "1e3",     "0.5",     "0.01",
    "0.99",       "1e-9",    "1e-300",  "nan",
    "inf",        "-inf",    "1e308",   "0x10",
    " 5",         "5 ",      "jacobi",  "gs",
    "gs_colored", "apgd",    "si",      "SI",
    "associated", "desaxce", "pyramid", "/nonexistent/materials.ini",
    "/dev/null",  "/",       "0.036",   "0.1 r",
    "3abc",       "1024",
};
// Names beside rfshim::env::kKnown (every variable the preload reads):
// misspelt ones, which the preload must name and go on.
static const char *const kMisspelt[] = {"ROLLFRIC_ITERATION", "ROLLFRIC_SOLVR",
                                        "ROLLFRIC_"};

// fuzz_env [--random N SEED] [FILE...]: each FILE as one input, then N
// inputs of 1-6 random NAME=VALUE lines from a generator seeded with
// SEED (the same inputs on every machine).
int main(int argc, char **argv)
{
    long random = 0;
    unsigned long seed = 1;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--random") == 0 && i + 2 < argc) {
            random = std::strtol(argv[i + 1], nullptr, 10);
            seed = std::strtoul(argv[i + 2], nullptr, 10);
            i += 2;
            continue;
        }
        std::ifstream f(argv[i], std::ios::binary);
        if (!f) {
            std::fprintf(stderr, "fuzz_env: cannot read %s\n", argv[i]);
            return 1;
        }
        const std::string data((std::istreambuf_iterator<char>(f)),
                               std::istreambuf_iterator<char>());
        std::printf("fuzz_env: %s (%zu bytes)\n", argv[i], data.size());
        std::fflush(stdout);
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(data.data()),
                               data.size());
    }
    std::mt19937 rng((std::mt19937::result_type)seed);
    const size_t nv = sizeof kValues / sizeof kValues[0];
    std::vector<const char *> names(
        rfshim::env::kKnown, rfshim::env::kKnown + rfshim::env::kKnownCount);
    names.insert(names.end(), std::begin(kMisspelt), std::end(kMisspelt));
    for (long k = 0; k < random; ++k) {
        std::string in;
        const int lines = 1 + (int)(rng() % 6);
        for (int l = 0; l < lines; ++l) {
            in += names[rng() % names.size()];
            in += '=';
            if (rng() % 8 == 0) { // a long value
                in += std::string(200 + rng() % 300, (char)('a' + rng() % 26));
            } else {
                in += kValues[rng() % nv];
            }
            in += '\n';
        }
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(in.data()),
                               in.size());
    }
    std::printf("fuzz_env: %ld random inputs from seed %lu passed (%ld runs "
                "taken by the cone, %ld left to stock)\n",
                random, seed, g_taken, g_stock);
    // both branches of the oracle ran, or the test proves nothing
    if (random >= 50 && (g_taken == 0 || g_stock == 0)) {
        std::fprintf(stderr, "fuzz_env: one branch of the oracle never ran\n");
        return 1;
    }
    return 0;
}
#endif
