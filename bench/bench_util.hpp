// Small helpers shared by the Bullet benchmark programs (rfbench_bullet,
// rfbench_scenes, rfbench_ab).  Header-only.
#ifndef ROLLFRIC_BENCH_UTIL_HPP
#define ROLLFRIC_BENCH_UTIL_HPP

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

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
