// The plugin interface: the example plugin loads and runs; malformed plugins are refused with a reason.
#include "plugins/impls.h"
#include "run/runner.h"
#include "pipeline/pipeline.h"
#include "run_binary.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace qc;

TEST(Plugin, ExamplePluginLoadsBesideTheBuiltins) {
    std::vector<Impl> cat = load_catalogue({PluginSpec::library(QC_EXAMPLE_PLUGIN)}, test::worker_context());
    const Impl *f32 = nullptr, *f64 = nullptr;
    for (const auto &i : cat) {
        if (i.name == "example-slerp.f32") f32 = &i;
        if (i.name == "example-slerp.f64") f64 = &i;
    }
    ASSERT_NE(f32, nullptr);
    ASSERT_NE(f64, nullptr);
    EXPECT_EQ(f32->group, "plugin");
    EXPECT_TRUE(f32->known.empty());
    EXPECT_TRUE(f32->supports(Op::slerp));
    EXPECT_TRUE(f32->supports(Op::nlerp));
    EXPECT_FALSE(f64->supports(Op::nlerp));
    EXPECT_FALSE(f64->supports(Op::squad));
    double q0[4] = {1, 0, 0, 0}, q1[4] = {std::cos(M_PI / 4), std::sin(M_PI / 4), 0, 0}, out[4];
    f64->slerp(q0, q1, 0.5, out);
    EXPECT_NEAR(out[0], 0.92387953251128674, 1e-15);
    EXPECT_NEAR(out[1], 0.38268343236508978, 1e-15);

    // And it runs through the harness like a built-in.
    RunOptions opt;
    opt.impl_filters = {"example-slerp"};
    opt.cases = 200;
    opt.jobs = 1;
    RunOutput r = run(opt, cat);
    ASSERT_EQ(r.rows.size(), 3u * all_regions().size());
    for (const auto &row : r.rows) {
        EXPECT_EQ(row.nonfinite, 0u) << row.impl->name << " " << to_string(row.region);
        if (row.op == Op::slerp && row.impl->precision == Precision::f64 && row.region == Region::uniform) {
            EXPECT_LT(row.max_angle_err_rad, 1e-14);
        }
    }
}

TEST(Plugin, RefusesWhatIsNotAPlugin) {
    const RunContext ctx = test::worker_context();
    EXPECT_THROW(load_catalogue({PluginSpec::library("example_plugin.so")}, ctx),
                 InputError);  // no slash: never searched
    EXPECT_THROW(load_catalogue({PluginSpec::library("/nonexistent/plugin.so")}, ctx), InputError);  // cannot load
    try {
        load_catalogue({PluginSpec::library("/lib/x86_64-linux-gnu/libm.so.6")}, ctx);
        FAIL() << "libm accepted as a plugin";
    } catch (const InputError &e) {
        EXPECT_NE(std::string(e.what()).find("no qc_plugin_v1"), std::string::npos) << e.what();
    }
    // Loading the same plugin twice duplicates its families.
    EXPECT_THROW(load_catalogue({PluginSpec::library(QC_EXAMPLE_PLUGIN), PluginSpec::library(QC_EXAMPLE_PLUGIN)}, ctx),
                 InputError);
}

namespace {
void f32_slerp(const float *, const float *, float, float *) {}
void f64_squad(const double *, const double *, const double *, const double *, double, double *) {}
}  // namespace

TEST(Plugin, DescriptorChecks) {
    EXPECT_NE(check_descriptor(nullptr, 1), "");
    qc_impl_v1 ok{};
    ok.family = "fine-name_1";
    ok.slerp_f32 = f32_slerp;
    EXPECT_EQ(check_descriptor(&ok, 1), "");
    EXPECT_NE(check_descriptor(&ok, 0), "");
    qc_impl_v1 two[2] = {ok, ok};
    EXPECT_NE(check_descriptor(two, 2).find("twice"), std::string::npos);
    qc_impl_v1 empty = ok;
    empty.family = "";
    EXPECT_NE(check_descriptor(&empty, 1).find("empty"), std::string::npos);
    qc_impl_v1 nul = ok;
    nul.family = nullptr;
    EXPECT_NE(check_descriptor(&nul, 1), "");
    qc_impl_v1 bad = ok;
    bad.family = "has space";
    EXPECT_NE(check_descriptor(&bad, 1), "");
    qc_impl_v1 dot = ok;
    dot.family = "a.f32";
    EXPECT_NE(check_descriptor(&dot, 1), "");
    qc_impl_v1 none{};
    none.family = "nothing";
    EXPECT_NE(check_descriptor(&none, 1).find("no function"), std::string::npos);
    qc_impl_v1 half{};
    half.family = "half-squad";
    half.squad_f64 = f64_squad;
    EXPECT_NE(check_descriptor(&half, 1).find("squad_setup"), std::string::npos);
}
