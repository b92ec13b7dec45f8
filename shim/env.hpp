// The ROLLFRIC_* environment: the variables rollfric reads, switches in
// the usual spellings, numbers, and the nearest known name for a
// misspelt one.  Internal to the shim; compiled into librollfric (for
// rf_bullet_config_from_env and rf_bullet_apply_env) and into the
// LD_PRELOAD library.
#ifndef ROLLFRIC_SHIM_ENV_HPP
#define ROLLFRIC_SHIM_ENV_HPP

#include <string>

namespace rfshim {
namespace env {

// Every variable rollfric reads, for the unknown-variable check.
extern const char *const kKnown[];
extern const int kKnownCount;

// A switch's value: off, false, no, 0 (false) and on, true, yes, 1
// (true), in any case.  False for any other value (*on untouched).
bool parse_switch(const char *value, bool *on);

// name's switch value: true with *on set (to dflt when unset), false
// with msg set ("NAME='value' is not a switch (...)") for a bad value.
bool switch_var(const char *name, bool dflt, bool *on, std::string *msg);

// name's value as a finite number >= 0: true with *out set (untouched
// when unset, *given false), false with msg set for a bad value.
bool length_var(const char *name, double *out, bool *given, std::string *msg);

// The known variable nearest name (edit distance), or "" when none is
// within a third of its length.
std::string nearest_known(const std::string &name);

// "ROLLFRIC_X is not a variable rollfric reads (did you mean
// ROLLFRIC_Y?)" for every ROLLFRIC_* variable of the environment that is
// not known, one message per line; "" when there is none.
std::string unknown_variables();

} // namespace env
} // namespace rfshim

#endif
