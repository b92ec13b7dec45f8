// Small helpers shared by the Bullet benchmark programs (rfbench_bullet,
// rfbench_scenes, rfbench_ab).  Header-only.
#ifndef ROLLFRIC_BENCH_UTIL_HPP
#define ROLLFRIC_BENCH_UTIL_HPP

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include <LinearMath/btQuickprof.h>

namespace rfbench {

// Seconds on the steady clock (differences only).
inline double now()
{
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch())
        .count();
}

// The median (the mean of the middle two for an even count; 0 for none).
inline double median(std::vector<double> v)
{
    if (v.empty()) {
        return 0;
    }
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Time spent in two of Bullet's own profile zones of
// btDiscreteDynamicsWorld::stepSimulation (3.24, BT_PROFILE): the solve
// phase ("solveConstraints": islands, the constraint solver's set-up,
// iterations and write-back, so the cone's whole solve and stock's alike)
// and collision detection ("performDiscreteCollisionDetection": broad and
// narrow phase).  Debian's Bullet has the zones compiled in and calls
// btEnterProfileZone / btLeaveProfileZone at each (its default hooks do
// nothing); install() sets hooks that read the clock at those two zones
// and only compare the name at the others (tens of zones a step).  A
// world's step is split into phases by setting `into` before it: the
// zones' seconds are added to into[kSolve] and into[kCollide].  One
// thread's zones only (the hooks keep no lock): Debian's Bullet steps a
// world on the caller's thread.
struct PhaseClock {
    enum { kSolve = 0, kCollide = 1 };
    static inline double *into = nullptr;
    static void install();
    // One call of step() (a world's step): its wall seconds returned, the
    // seconds in the two zones into phase[kSolve], phase[kCollide].
    template <class Step> static double timed(Step &&step, double phase[2])
    {
        phase[kSolve] = phase[kCollide] = 0.0;
        into = phase;
        const double t0 = now();
        step();
        const double wall = now() - t0;
        into = nullptr;
        return wall;
    }

  private:
    static constexpr int kDepth = 64;
    static inline thread_local int depth = 0;
    static inline thread_local int tag[kDepth];
    static inline thread_local double start[kDepth];
    static void enter(const char *name)
    {
        int t = -1;
        if (name != nullptr && name[0] == 's' &&
            std::strcmp(name, "solveConstraints") == 0) {
            t = kSolve;
        } else if (name != nullptr && name[0] == 'p' &&
                   std::strcmp(name, "performDiscreteCollisionDetection") ==
                       0) {
            t = kCollide;
        }
        if (depth < kDepth) {
            tag[depth] = t;
            if (t >= 0) {
                start[depth] = now();
            }
        }
        ++depth;
    }
    static void leave()
    {
        if (depth == 0) {
            return; // a zone entered before install()
        }
        --depth;
        if (depth < kDepth && tag[depth] >= 0 && into != nullptr) {
            into[tag[depth]] += now() - start[depth];
        }
    }
};

inline void PhaseClock::install()
{
    btSetCustomEnterProfileZoneFunc(enter);
    btSetCustomLeaveProfileZoneFunc(leave);
}

// "a,b,,c" -> {"a", "b", "c"}: a command-line list, empty items dropped.
inline std::vector<std::string> split(const char *s)
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

} // namespace rfbench

#endif // ROLLFRIC_BENCH_UTIL_HPP
