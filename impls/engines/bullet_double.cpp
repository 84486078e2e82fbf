// Bullet double-precision adapter (family "bullet-double"): bullet.cpp compiled with
// BT_USE_DOUBLE_PRECISION, the configuration of Debian's libLinearMath-float64 (pkg-config bullet-float64).
// See bullet.cpp for what it calls and why the headers are wrapped in a namespace.
#ifndef BT_USE_DOUBLE_PRECISION
#define BT_USE_DOUBLE_PRECISION
#endif
#define QC_BULLET_DOUBLE 1
#include "bullet.cpp"
