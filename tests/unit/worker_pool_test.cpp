// The forked workers of `poolcheck mutate --auto --jobs N`, and how a
// mutant's run becomes its verdict.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "fuzz/harness/auto_report.hpp"
#include "fuzz/harness/worker_pool.hpp"

namespace poolcheck::harness {
namespace {

TEST(WorkerPool, AnswersEveryRequestInOrderOnSeveralWorkers) {
  std::vector<Json> requests;
  for (int i = 0; i < 12; ++i) requests.push_back(Json{{"n", i}});
  std::set<int> workers_seen;
  std::size_t replies_seen = 0;
  const auto replies = run_in_workers(
      3, requests, [](int worker, const Json& request) {
        return Json{{"square", request["n"].get<int>() * request["n"].get<int>()}, {"worker", worker}};
      },
      [&](std::size_t, const Json& reply) {
        ++replies_seen;
        workers_seen.insert(reply["worker"].get<int>());
      });
  ASSERT_EQ(replies.size(), 12u);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(replies[static_cast<std::size_t>(i)]["square"], i * i);
  EXPECT_EQ(replies_seen, 12u);
  for (int worker : workers_seen) EXPECT_TRUE(worker >= 0 && worker < 3);
}

TEST(WorkerPool, AWorkerKeepsItsStateBetweenRequests) {
  int handled = 0;  // each worker's own copy, after the fork
  const auto replies = run_in_workers(1, std::vector<Json>(3, Json::object()),
                                      [&](int, const Json&) { return Json{{"handled", ++handled}}; });
  EXPECT_EQ(replies[2]["handled"], 3);
  EXPECT_EQ(handled, 0);  // this process ran none of them
}

TEST(WorkerPool, AThrowingTaskAnswersWithItsError) {
  const auto replies = run_in_workers(2, {Json{{"fail", true}}, Json{{"fail", false}}}, [](int, const Json& request) {
    if (request["fail"].get<bool>()) throw std::runtime_error("no such mutant");
    return Json{{"ok", true}};
  });
  EXPECT_EQ(replies[0]["error"], "no such mutant");
  EXPECT_EQ(replies[1]["ok"], true);
}

TEST(MutantVerdict, ATimeoutIsNotAKillAndAKillIsNotATimeout) {
  MutantRun run;
  EXPECT_EQ(verdict_of(run), Verdict::DidNotBuild);
  run.built = true;
  EXPECT_EQ(verdict_of(run), Verdict::Survived);
  run.properties = {"poolcheck_properties (timed out after 90 s)"};
  run.timeouts = run.properties;
  EXPECT_EQ(verdict_of(run), Verdict::Timeout);
  run.entries = {"corpus/request/seeds/x.json"};
  EXPECT_EQ(verdict_of(run), Verdict::Killed);
}

TEST(MutantVerdict, ASurvivorsDiffShowsOnlyTheChangedLinesAsChanged) {
  Mutant m;
  m.find = "  a();\n  if (x < 1) b();\n  c();\n";
  m.replace = "  a();\n  if (x <= 1) b();\n  c();\n";
  EXPECT_EQ(mutant_diff(m), "   a();\n-  if (x < 1) b();\n+  if (x <= 1) b();\n   c();\n");
  m.replace = "";
  EXPECT_EQ(mutant_diff(m), "-  a();\n-  if (x < 1) b();\n-  c();\n");
}

}  // namespace
}  // namespace poolcheck::harness
