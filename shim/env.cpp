// The ROLLFRIC_* environment (env.hpp).
#include "env.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <strings.h>
#include <vector>

extern char **environ;

namespace rfshim {
namespace env {

const char *const kKnown[] = {
    "ROLLFRIC",
    "ROLLFRIC_CONVERGED",
    "ROLLFRIC_SOLVER",
    "ROLLFRIC_MODEL",
    "ROLLFRIC_ITERATIONS",
    "ROLLFRIC_TOLERANCE",
    "ROLLFRIC_THREADS",
    "ROLLFRIC_VERBOSE",
    "ROLLFRIC_QUIET",
    "ROLLFRIC_RECORD",
    "ROLLFRIC_RECORD_CONTACTS",
    "ROLLFRIC_ROLLING_FRICTION",
    "ROLLFRIC_SPINNING_FRICTION",
    "ROLLFRIC_MATERIALS",
};
const int kKnownCount = (int)(sizeof kKnown / sizeof kKnown[0]);

bool parse_switch(const char *value, bool *on)
{
    static const char *const yes[] = {"on", "true", "yes", "1"};
    static const char *const no[] = {"off", "false", "no", "0"};
    for (const char *s : yes) {
        if (strcasecmp(value, s) == 0) {
            *on = true;
            return true;
        }
    }
    for (const char *s : no) {
        if (strcasecmp(value, s) == 0) {
            *on = false;
            return true;
        }
    }
    return false;
}

// "NAME='value'" with a long value cut, so that the reason after it
// always fits a message.
static std::string quoted(const char *name, const char *value)
{
    std::string v(value);
    if (v.size() > 40) {
        v = v.substr(0, 40) + "...";
    }
    return std::string(name) + "='" + v + "'";
}

bool switch_var(const char *name, bool dflt, bool *on, std::string *msg)
{
    const char *v = std::getenv(name);
    if (v == nullptr) {
        *on = dflt;
        return true;
    }
    if (parse_switch(v, on)) {
        return true;
    }
    *msg = quoted(name, v) +
           " is not a switch (off, false, no, 0 or on, true, yes, 1)";
    return false;
}

bool length_var(const char *name, double *out, bool *given, std::string *msg)
{
    *given = false;
    const char *v = std::getenv(name);
    if (v == nullptr) {
        return true;
    }
    char *end;
    const double x = std::strtod(v, &end);
    if (*v == '\0' || *end != '\0' || !std::isfinite(x) || !(x >= 0.0)) {
        *msg = quoted(name, v) + " is not a length >= 0 (m)";
        return false;
    }
    *out = x;
    *given = true;
    return true;
}

// Levenshtein distance.
static int distance(const std::string &a, const std::string &b)
{
    std::vector<int> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) {
        row[j] = (int)j;
    }
    for (size_t i = 1; i <= a.size(); ++i) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const int up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1,
                               diag + (a[i - 1] != b[j - 1] ? 1 : 0)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string nearest_known(const std::string &name)
{
    std::string best;
    int best_d = (int)name.size() / 3 + 1;
    for (int k = 0; k < kKnownCount; ++k) {
        const int d = distance(name, kKnown[k]);
        if (d < best_d) {
            best_d = d;
            best = kKnown[k];
        }
    }
    return best;
}

std::string unknown_variables()
{
    std::string out;
    for (char **e = environ; e != nullptr && *e != nullptr; ++e) {
        if (std::strncmp(*e, "ROLLFRIC", 8) != 0) {
            continue;
        }
        const char *eq = std::strchr(*e, '=');
        const std::string name =
            eq ? std::string(*e, (size_t)(eq - *e)) : std::string(*e);
        if (name != "ROLLFRIC" && name.compare(0, 9, "ROLLFRIC_") != 0) {
            continue; // ROLLFRICTION=..., another program's
        }
        bool known = false;
        for (int k = 0; k < kKnownCount; ++k) {
            known |= name == kKnown[k];
        }
        if (known) {
            continue;
        }
        std::string line = name + " is not a variable rollfric reads";
        const std::string near = nearest_known(name);
        line += near.empty() ? " (docs/bullet.md lists them)"
                             : " (did you mean " + near + "?)";
        out += line + "\n";
    }
    return out;
}

} // namespace env
} // namespace rfshim
