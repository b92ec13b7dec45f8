// Small helpers shared by the Bullet benchmark programs (rfbench_bullet,
// rfbench_scenes).  Header-only.
#ifndef ROLLFRIC_BENCH_UTIL_HPP
#define ROLLFRIC_BENCH_UTIL_HPP

#include <string>
#include <vector>

namespace rfbench {

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
