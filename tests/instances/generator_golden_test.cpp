// Golden generator values for every registered check (both papers): the instances a seed gives
// are pinned by a 64-bit FNV-1a hash of their JSON text, for seeds 1, 2, 3 with default
// options. The generators use no system libm (MPFR for log/cos/sin, IEEE +, ×, ÷, sqrt), so
// these hold on every platform; a change here changes the suites' instances and must be said.
// Changed on purpose: varre2026.regression.* (rebuilt on the authors' construction, both
// readings draw the same sweeps).
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>

#include "engine/registry.hpp"

namespace softcert {
namespace {

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

// name → hashes of generate(1), generate(2), generate(3).
const std::map<std::string, std::vector<std::uint64_t>> kGolden = {
    {"sukenik2026.cost_scaling", {14509711223297507172ULL, 8439474962624764969ULL, 5449578510205789167ULL}},
    {"sukenik2026.cost_scaling.soft_attention", {796926133638107749ULL, 1311629016618143135ULL, 7789521691193763477ULL}},
    {"sukenik2026.hard_switch", {11006187714057616392ULL, 9278640933562558136ULL, 16328248151201748080ULL}},
    {"sukenik2026.hard_switch.inputs", {4960420518753289417ULL, 5332759182714043563ULL, 1940201073166428212ULL}},
    {"sukenik2026.oversmoothing", {4017926319015229285ULL, 16700087088393022547ULL, 3953082706672368805ULL}},
    {"sukenik2026.oversmoothing.general", {697731052043625388ULL, 375386603629770560ULL, 12936630466282734942ULL}},
    {"sukenik2026.sink_alignment", {3933560812795019528ULL, 13648734507826690951ULL, 2945596997410919067ULL}},
    {"sukenik2026.sink_representability", {121182209825532537ULL, 13159856910282714003ULL, 5224742572047617978ULL}},
    {"test.parity", {1263121807262666151ULL, 14827832651273842747ULL, 9127265751459042522ULL}},
    {"test.unbacked_violation", {17454069925679226414ULL, 17454069925679226414ULL, 17454069925679226414ULL}},
    {"varre2026.attention_sink", {18259239696381404352ULL, 18417255521861403838ULL, 15051017373010885975ULL}},
    {"varre2026.attention_sink.agreeing", {10607582466256640771ULL, 2768216312032589510ULL, 266770594263413755ULL}},
    {"varre2026.attention_sink.argmax_a0", {16831386322127309859ULL, 16729882295465492258ULL, 10621333194183871807ULL}},
    {"varre2026.attention_sink.argmax_u0", {1073578218044513015ULL, 3743621600813507278ULL, 1353116794322494691ULL}},
    {"varre2026.attention_sink.values_at_zero", {11292987066726482727ULL, 17444914219525096728ULL, 11131495618471289418ULL}},
    {"varre2026.elementwise_relu.no_polarization", {12780569114821259248ULL, 5325865849626868404ULL, 9167176936031231503ULL}},
    {"varre2026.gd.order_preservation", {1126604081253608026ULL, 47142630531304378ULL, 2064582732838899139ULL}},
    {"varre2026.gd.gaps_never_shrink", {1883704732435021025ULL, 10669997739108048635ULL, 9081157853101392398ULL}},
    {"varre2026.kl.loss_reaches_infimum", {17216450877648991636ULL, 149180588491174493ULL, 17415582805755197576ULL}},
    {"varre2026.massive_values", {14816435000056598265ULL, 14908990257127317355ULL, 2664183806046357098ULL}},
    {"varre2026.normalization.open_gates", {15521984401274417102ULL, 5998547357115263487ULL, 73078397343794406ULL}},
    {"varre2026.normalization.polarizes", {15190356763430834676ULL, 16383162256133843928ULL, 13016128281719537795ULL}},
    {"varre2026.normalization.spread", {16519696253104185230ULL, 2530912776273135191ULL, 15314058582932522754ULL}},
    {"varre2026.normalization.square_weaker", {10762023432465985120ULL, 16270396039008573020ULL, 10164776036326199570ULL}},
    {"varre2026.one_hot.eventual", {765949746736105660ULL, 1389994180771232550ULL, 18038128798965481119ULL}},
    {"varre2026.one_hot.finite", {12356132223203485201ULL, 15530832482605825235ULL, 14524050062148925182ULL}},
    {"varre2026.one_hot.rate", {9591121500074418864ULL, 17442595187770575426ULL, 7405928629875822751ULL}},
    {"varre2026.one_hot.rate.log2_unit", {2601156519321490773ULL, 5957606864087197555ULL, 8579621247877248994ULL}},
    {"varre2026.loss.rate", {5208330195964732967ULL, 12830634397254821731ULL, 905866134227292938ULL}},
    {"varre2026.loss.rate.half", {72787569497636792ULL, 5988010243930280454ULL, 15881806086740453711ULL}},
    {"varre2026.one_hot.t2_basin", {11536987457830326612ULL, 3608469701173565809ULL, 12532950708029701497ULL}},
    {"varre2026.one_hot.t2_basin.swapped", {4236439262469879452ULL, 11800655864288382561ULL, 15549432996656230849ULL}},
    {"varre2026.one_hot.t2_separatrix", {10550181517223231838ULL, 16366666600393895457ULL, 2366119498864516779ULL}},
    {"varre2026.order_preservation", {303915588631760487ULL, 16934810570477839473ULL, 3669342328231172656ULL}},
    {"varre2026.order_preservation.all_time", {11280286021167592237ULL, 3661229207570260270ULL, 5176917621876702081ULL}},
    {"varre2026.regression.conditioning", {2998979189998733300ULL, 14022387093182635826ULL, 2417899954219564351ULL}},
    {"varre2026.regression.conditioning.monotone", {2998979189998733300ULL, 14022387093182635826ULL, 2417899954219564351ULL}},
    {"varre2026.repulsion.all_pairs", {16125552284075711094ULL, 13341339882171288186ULL, 1405219957808430323ULL}},
    {"varre2026.repulsion.leader", {18101314016469971638ULL, 11010453765018132640ULL, 16544807645378829325ULL}},
    {"varre2026.repulsion.leader.all_time", {3563360947711189982ULL, 17048414892829993701ULL, 15663741495839444002ULL}},
    {"varre2026.square_rank_one.partial_polarization", {6093467475120500955ULL, 2320643236025477400ULL, 6408067010252320315ULL}},
    {"varre2026.tied.attended_column_grows", {6836674991405252583ULL, 13501077536228740192ULL, 4997029580315116769ULL}},
    {"varre2026.tied.attended_column_grows.monotone", {3130603267805214681ULL, 6066143572663486120ULL, 8802712225457519139ULL}},
};

TEST(GeneratorGolden, EveryCheckGeneratesTheSameInstancesEverywhere) {
  std::size_t checked = 0;
  for (const auto* check : engine::CheckRegistry::global().all()) {
    std::vector<std::uint64_t> got;
    for (std::uint64_t seed : {1, 2, 3}) got.push_back(fnv1a(check->generate(seed, engine::GenerateOptions{}).dump()));
    const auto it = kGolden.find(check->name());
    if (it == kGolden.end()) {
      ADD_FAILURE() << "no golden values for " << check->name() << ": {\"" << check->name() << "\", {" << got[0]
                    << "ULL, " << got[1] << "ULL, " << got[2] << "ULL}},";
      continue;
    }
    EXPECT_EQ(got, it->second) << check->name();
    ++checked;
  }
  EXPECT_GT(checked, 10u);
}

}  // namespace
}  // namespace softcert
