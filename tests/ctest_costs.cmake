# Included by CTest after the discovered gtest cases (tests/CMakeLists.txt, TEST_INCLUDE_FILES):
# the longest tests start first, longest first (COST: their seconds on 2 cores in a fresh
# clone's `make test`). A fresh build directory has no CTest timing history, so CTest would start them in
# declaration order, and a test of a minute started late leaves the other core idle at the end
# of `make test` (docs/performance.md, "Building from scratch"). A name that does not exist is
# ignored.
set_tests_properties(IntervalMpfrSoundness.ElementaryFunctionsEncloseHighPrecisionValues PROPERTIES COST 62)
set_tests_properties(ElementaryDoubleBounds.LogIsItsDirectedRoundingsAtTenMillionArguments PROPERTIES COST 42)
set_tests_properties(MarginContract.EveryCheckPrintsAnOrderedMarginThatAgreesWithItsVerdict PROPERTIES COST 26)
set_tests_properties(IntervalDoubleSoundness.ElementaryFunctionsEncloseHighPrecisionValues PROPERTIES COST 25)
set_tests_properties(ValueSoftmaxJacobian.ContainsThe256BitJacobianOnTheAuthorsRegressionInstance PROPERTIES COST 20)
set_tests_properties(Varre2026Regression.AuthorsSweepFastTierEntropyFallsAtEveryStep PROPERTIES COST 19)
set_tests_properties(RigorousFullRandom.EnclosureContainsA300BitReferenceForEveryLossAndSmoothNormalization PROPERTIES COST 14)
set_tests_properties(CliReproduce.RegressionReportsBothReadingsOnRandomSweeps PROPERTIES COST 11)
