//! Check: build the driver with gcc --coverage, run it, read gcov's JSON and
//! compare measured coverage with what the engine predicted.
