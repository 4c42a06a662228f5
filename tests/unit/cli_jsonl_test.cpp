// `poolcheck preprocess --jsonl` (issue 11, item 6): one envelope per input
// line, one {"exit", "output"} line per input line, where output and exit are
// exactly what the single-shot command prints and returns for that envelope.
// The real binary is run with fork/exec, through temporary files, as in
// cli_test.cpp.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "core/json.hpp"

namespace poolcheck {
namespace {

namespace fs = std::filesystem;

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

class CliJsonl : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "poolcheck-jsonl-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  fs::path file(const std::string& name, const std::string& bytes) {
    fs::path path = dir_ / name;
    write_file(path, bytes);
    return path;
  }

  RunResult run(const std::vector<std::string>& args, const std::string& stdin_bytes = "") {
    const std::string n = std::to_string(counter_++);
    const fs::path in = file("stdin-" + n, stdin_bytes);
    const fs::path out = dir_ / ("stdout-" + n);
    const fs::path err = dir_ / ("stderr-" + n);
    std::vector<std::string> argv_storage{POOLCHECK_CLI};
    argv_storage.insert(argv_storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& arg : argv_storage) argv.push_back(arg.data());
    argv.push_back(nullptr);

    RunResult result;
    const pid_t pid = fork();
    if (pid < 0) {
      ADD_FAILURE() << "fork failed";
      return result;
    }
    if (pid == 0) {
      const int in_fd = open(in.c_str(), O_RDONLY);
      const int out_fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      const int err_fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      if (in_fd < 0 || out_fd < 0 || err_fd < 0) _exit(127);
      dup2(in_fd, 0);
      dup2(out_fd, 1);
      dup2(err_fd, 2);
      execv(argv[0], argv.data());
      _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    else ADD_FAILURE() << "poolcheck did not exit normally";
    result.out = read_file(out);
    result.err = read_file(err);
    return result;
  }

  // The line --jsonl must print for `envelope`: built from the single-shot run.
  std::string expected_line(const std::string& envelope) {
    RunResult single = run({"preprocess", file("single-" + std::to_string(counter_) + ".json", envelope).string()});
    EXPECT_FALSE(single.out.empty());
    std::string output = single.out;
    if (!output.empty() && output.back() == '\n') output.pop_back();
    return "{\"exit\":" + std::to_string(single.exit_code) + ",\"output\":" + output + "}";
  }

  fs::path dir_;
  int counter_ = 0;
};

std::string show(const RunResult& r) {
  return "exit " + std::to_string(r.exit_code) + "\nstdout: " + r.out + "\nstderr: " + r.err;
}

const std::vector<std::string> kEnvelopes{
    R"({"endpoint":"score","request":{"queries":"q","documents":["a","b"]}})",
    R"({"endpoint":"rerank","request":{"query":"q","documents":["d"],"top_n":-1}})",
    R"({"endpoint":"rerank","request":{"query":"what is bert","documents":["bert is a model","a cat"]}})",
    R"({"endpoint":"score","request":{"model":"other","queries":"q","documents":"d"}})",
    R"({not json)",
    R"({"endpoint":"llm.score","request":{"data_1":"q","data_2":["a"],"pooling_params":{"extra_kwargs":{"k":1}}}})",
};

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return text;
}

TEST_F(CliJsonl, EachLineIsWhatTheSingleShotCommandPrints) {
  const fs::path input = file("in.jsonl", joined(kEnvelopes));
  RunResult r = run({"preprocess", "--jsonl", input.string()});
  ASSERT_EQ(r.exit_code, 0) << show(r);
  EXPECT_TRUE(r.err.empty()) << r.err;
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), kEnvelopes.size()) << r.out;
  for (std::size_t i = 0; i < kEnvelopes.size(); ++i) {
    SCOPED_TRACE(kEnvelopes[i]);
    EXPECT_EQ(lines[i], expected_line(kEnvelopes[i]));
    const Json record = Json::parse(lines[i]);
    ASSERT_TRUE(record.is_object());
    EXPECT_EQ(record.size(), 2u);
    EXPECT_TRUE(record.contains("exit") && record.contains("output"));
  }
  EXPECT_EQ(Json::parse(lines[0])["exit"], 0);
  EXPECT_EQ(Json::parse(lines[1])["exit"], 1);
  EXPECT_EQ(Json::parse(lines[1])["output"]["error"]["message"], "top_n: Input should be greater than or equal to 0");
  EXPECT_EQ(Json::parse(lines[3])["output"]["error"]["code"], 404);
  EXPECT_EQ(Json::parse(lines[4])["exit"], 1);
}

TEST_F(CliJsonl, StdinDashAndNoArgumentAreTheSameAsAFile) {
  const std::string text = joined(kEnvelopes);
  RunResult from_file = run({"preprocess", "--jsonl", file("in.jsonl", text).string()});
  RunResult dash = run({"preprocess", "--jsonl", "-"}, text);
  RunResult none = run({"preprocess", "--jsonl"}, text);
  RunResult flag_last = run({"preprocess", "-", "--jsonl"}, text);
  ASSERT_EQ(from_file.exit_code, 0) << show(from_file);
  for (const RunResult* r : {&dash, &none, &flag_last}) {
    EXPECT_EQ(r->exit_code, 0) << show(*r);
    EXPECT_EQ(r->out, from_file.out);
  }
}

TEST_F(CliJsonl, EmptyLinesCountAndAFinalLineNeedsNoNewline) {
  // "a\n\nb" is three inputs; the empty one is rejected like an empty file.
  const std::string text = kEnvelopes[0] + "\n\n" + kEnvelopes[2];
  RunResult r = run({"preprocess", "--jsonl"}, text);
  ASSERT_EQ(r.exit_code, 0) << show(r);
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_EQ(lines[0], expected_line(kEnvelopes[0]));
  EXPECT_EQ(lines[1], expected_line(""));
  EXPECT_EQ(Json::parse(lines[1])["exit"], 1);
  EXPECT_EQ(lines[2], expected_line(kEnvelopes[2]));

  RunResult empty = run({"preprocess", "--jsonl"}, "");
  EXPECT_EQ(empty.exit_code, 0) << show(empty);
  EXPECT_TRUE(empty.out.empty()) << empty.out;
}

TEST_F(CliJsonl, ManyLinesKeepTheirOrder) {
  std::vector<std::string> envelopes;
  for (int i = 0; i < 300; ++i)
    envelopes.push_back(R"({"endpoint":"score","request":{"request_id":")" + std::to_string(i) +
                        R"(","queries":"q","documents":"d","priority":)" + (i % 3 == 0 ? "\"x\"" : std::to_string(i)) + "}}");
  RunResult r = run({"preprocess", "--jsonl", file("many.jsonl", joined(envelopes)).string()});
  ASSERT_EQ(r.exit_code, 0) << show(r);
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), envelopes.size());
  for (int i = 0; i < 300; ++i) {
    const Json record = Json::parse(lines[static_cast<std::size_t>(i)]);
    if (i % 3 == 0) {
      EXPECT_EQ(record["exit"], 1) << lines[static_cast<std::size_t>(i)];
      EXPECT_EQ(record["output"]["error"]["param"], "priority");
    } else {
      ASSERT_EQ(record["exit"], 0) << lines[static_cast<std::size_t>(i)];
      EXPECT_EQ(record["output"]["outputs"][0]["request_id"], "score-" + std::to_string(i) + "-0");
    }
  }
}

TEST_F(CliJsonl, UsageErrors) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"preprocess", "--jsonl", "--frobnicate"},
        std::vector<std::string>{"preprocess", "--jsonl", "a.jsonl", "b.jsonl"},
        std::vector<std::string>{"preprocess", "--jsonl", (fs::temp_directory_path() / "poolcheck-no-such-dir" / "x.jsonl").string()},
        std::vector<std::string>{"preprocess", "--jsonl", dir_.string()}}) {
    RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 2) << show(r);
    EXPECT_FALSE(r.err.empty()) << show(r);
    EXPECT_TRUE(r.out.empty()) << show(r);
  }
}

TEST_F(CliJsonl, HelpDocumentsItWithAWorkingExample) {
  RunResult help = run({"preprocess", "--help"});
  ASSERT_EQ(help.exit_code, 0) << show(help);
  EXPECT_NE(help.out.find("poolcheck preprocess [--jsonl] [FILE]"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("| poolcheck preprocess --jsonl"), std::string::npos) << help.out;
  // The help's example: the second line is rejected, top_n below 0.
  RunResult r = run({"preprocess", "--jsonl"},
                    std::string(R"({"endpoint":"rerank","request":{"query":"q","documents":"d"}})") + "\n" +
                        R"({"endpoint":"rerank","request":{"query":"q","documents":"d","top_n":-1}})" + "\n");
  ASSERT_EQ(r.exit_code, 0) << show(r);
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.out;
  EXPECT_EQ(Json::parse(lines[0])["exit"], 0);
  EXPECT_EQ(Json::parse(lines[1])["exit"], 1);
  EXPECT_EQ(Json::parse(lines[1])["output"]["error"]["message"], "top_n: Input should be greater than or equal to 0");
}

}  // namespace
}  // namespace poolcheck
