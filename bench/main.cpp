// qc_bench: every suite of bench/suites.h with Google Benchmark's command line, e.g.
//   build/bench/qc_bench --benchmark_filter='BM_(Reference|MpfrFloor)/slerp/f64$'
// `quatcheck bench` runs the same suites and writes the CSVs.
#include "bench/suites.h"

int main(int argc, char **argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
    qc::bench::BenchOptions o;
    std::vector<std::pair<std::string, qc::bench::BenchKey>> keys;
    const std::vector<qc::Impl> catalogue = qc::load_catalogue({});
    qc::bench::register_impl_benchmarks(catalogue, o, keys);
    qc::bench::register_harness_benchmarks(o, keys);
    qc::bench::register_eval_benchmarks(catalogue, o);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
