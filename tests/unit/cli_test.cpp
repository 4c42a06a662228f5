// The `poolcheck` command line (issue 2, item 4): the real binary, run with
// fork/exec, inputs and outputs through temporary files (no shell involved).
// Exit codes: 0 accepted, 1 rejected (error body on stdout), 2 usage error
// (message on stderr).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "core/json_input.hpp"

namespace poolcheck {
namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;

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

// A fresh directory per test, removed afterwards.
class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "poolcheck-cli-XXXXXX").string();
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

  // Runs the binary with `args`; standard input is `stdin_bytes` (empty when nullopt).
  RunResult run(const std::vector<std::string>& args, const std::optional<std::string>& stdin_bytes = std::nullopt) {
    const fs::path in = dir_ / ("stdin-" + std::to_string(counter_));
    const fs::path out = dir_ / ("stdout-" + std::to_string(counter_));
    const fs::path err = dir_ / ("stderr-" + std::to_string(counter_));
    ++counter_;
    write_file(in, stdin_bytes.value_or(""));

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
    if (WIFEXITED(status)) {
      result.exit_code = WEXITSTATUS(status);
    } else {
      ADD_FAILURE() << "poolcheck did not exit normally (signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0)
                    << ")";
    }
    result.out = read_file(out);
    result.err = read_file(err);
    return result;
  }

  // The line `preprocess --jsonl` must print for `envelope`: built from the single-shot run.
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

std::string show(const RunResult& r) { return "exit " + std::to_string(r.exit_code) + "\nstdout: " + r.out + "\nstderr: " + r.err; }

// With the core's reader: outputs may hold NaN or integers beyond 64 bits, as Python's would.
Json parse_stdout(const RunResult& r) {
  auto value = parse_bounded_json(r.out, 256);
  if (!value) {
    ADD_FAILURE() << "stdout is not JSON: " << value.error().message << "\n" << show(r);
    return Json();
  }
  return std::move(*value);
}

void expect_accepted(const RunResult& r, const Json& expected) {
  ASSERT_EQ(r.exit_code, 0) << show(r);
  EXPECT_EQ(parse_stdout(r), expected) << show(r);
}

// Exit 1 and exactly the spec's error body on stdout.
Json expect_rejected(const RunResult& r, std::optional<std::string> message = std::nullopt) {
  EXPECT_EQ(r.exit_code, 1) << show(r);
  Json body = parse_stdout(r);
  EXPECT_TRUE(body.is_object() && body.size() == 1 && body.contains("error")) << show(r);
  if (!body.is_object() || !body.contains("error")) return body;
  const Json& error = body["error"];
  EXPECT_EQ(error.size(), 4u) << error.dump();
  EXPECT_TRUE(error["message"].is_string());
  EXPECT_TRUE(error["type"].is_string());
  EXPECT_TRUE(error["param"].is_null() || error["param"].is_string());
  EXPECT_TRUE(error["code"] == 400 || error["code"] == 404) << error.dump();
  EXPECT_EQ(error["type"], error["code"] == 404 ? "NotFoundError" : "BadRequestError");
  if (message) {
    EXPECT_EQ(error["message"], *message);
  }
  return body;
}

void expect_usage_error(const RunResult& r) {
  EXPECT_EQ(r.exit_code, 2) << show(r);
  EXPECT_FALSE(r.err.empty()) << show(r);
  EXPECT_TRUE(r.out.empty()) << show(r);
}

constexpr const char* kCompressMessage =
    "Token type ids are expected to be a sequence of zeros followed by a sequence of ones";
constexpr const char* kScoreRequest = R"({"endpoint":"score","request":{"queries":"q","documents":["a","b"]}})";

// ---- exit codes per command -------------------------------------------------

TEST_F(Cli, PreprocessExitCodes) {
  auto ok = run({"preprocess", file("req.json", kScoreRequest).string()});
  ASSERT_EQ(ok.exit_code, 0) << show(ok);
  Json out = parse_stdout(ok);
  ASSERT_EQ(out["outputs"].size(), 2u);
  EXPECT_EQ(out["outputs"][1]["request_id"], "score-0-1");
  EXPECT_TRUE(ok.err.empty()) << ok.err;

  auto bad = run({"preprocess", file("bad.json", R"({"endpoint":"rerank","request":{"query":"q","documents":["d"],"normalize":false}})").string()});
  Json body = expect_rejected(bad, "Parameter `normalize` was removed; use `use_activation` instead.");
  EXPECT_EQ(body["error"]["param"], "normalize");
  EXPECT_EQ(body["error"]["code"], 400);

  expect_rejected(run({"preprocess", file("invalid.json", "{not json").string()}));
  expect_rejected(run({"preprocess", file("empty.json", "").string()}));
  expect_usage_error(run({"preprocess", "--frobnicate"}));
  expect_usage_error(run({"preprocess", file("a.json", kScoreRequest).string(), file("b.json", kScoreRequest).string()}));
}

TEST_F(Cli, PreprocessNotFoundIsExitOneWith404Body) {
  auto r = run({"preprocess", file("m.json", R"({"endpoint":"score","request":{"model":"x","queries":"q","documents":"d"}})").string()});
  Json body = expect_rejected(r, "The model `x` does not exist.");
  EXPECT_EQ(body["error"]["code"], 404);
  EXPECT_EQ(body["error"]["type"], "NotFoundError");
  EXPECT_EQ(body["error"]["param"], "model");
}

TEST_F(Cli, CompressExitCodes) {
  expect_accepted(run({"compress", file("t.json", "[0,0,1,1]").string()}), Json::parse(R"({"compressed_token_type_ids":2})"));
  expect_accepted(run({"compress", file("e.json", "[]").string()}), Json::parse(R"({"compressed_token_type_ids":0})"));
  expect_accepted(run({"compress", file("z.json", "[0,0,0]").string()}), Json::parse(R"({"compressed_token_type_ids":3})"));
  expect_accepted(run({"compress", file("n.json", "[0,-1,1]").string()}), Json::parse(R"({"compressed_token_type_ids":2})"));
  expect_rejected(run({"compress", file("b.json", "[0,1,0]").string()}), kCompressMessage);
  expect_rejected(run({"compress", file("c.json", "[2]").string()}), kCompressMessage);
  expect_rejected(run({"compress", file("d.json", "[true]").string()}));
  expect_rejected(run({"compress", file("f.json", "{}").string()}));
  expect_usage_error(run({"compress", "--msgpack"}));
  expect_usage_error(run({"compress", "x", "y"}));
}

TEST_F(Cli, ReconstructExitCodes) {
  expect_accepted(run({"reconstruct", "2", "4"}), Json::parse(R"({"token_type_ids":[0,0,1,1]})"));
  expect_accepted(run({"reconstruct", "-1", "3"}), Json::parse(R"({"token_type_ids":[1,1,1]})"));
  expect_accepted(run({"reconstruct", "9", "2"}), Json::parse(R"({"token_type_ids":[0,0]})"));
  expect_accepted(run({"reconstruct", "0", "0"}), Json::parse(R"({"token_type_ids":[]})"));
}

TEST_F(Cli, ReconstructNegativeLengthIsRejected) {
  for (const char* len : {"-1", "-9223372036854775808"}) {
    SCOPED_TRACE(len);
    Json body = expect_rejected(run({"reconstruct", "0", len}));
    EXPECT_EQ(body["error"]["code"], 400);
    EXPECT_EQ(body["error"]["param"], "LEN");
  }
}

TEST_F(Cli, ReconstructBadArgumentsAreUsageErrors) {
  const std::vector<std::vector<std::string>> cases{
      {"reconstruct"},
      {"reconstruct", "1"},
      {"reconstruct", "1", "2", "3"},
      {"reconstruct", "x", "2"},
      {"reconstruct", "1", "two"},
      {"reconstruct", "1", "2.0"},
      {"reconstruct", "1.5", "2"},
      {"reconstruct", "", "2"},
      {"reconstruct", "1", " 2"},
      {"reconstruct", "1", "2x"},
      {"reconstruct", "99999999999999999999", "2"},
      {"reconstruct", "1", "9223372036854775808"},
      {"reconstruct", "--bogus", "1", "2"},
  };
  for (const auto& args : cases) {
    std::string joined;
    for (const auto& a : args) joined += "[" + a + "] ";
    SCOPED_TRACE(joined);
    expect_usage_error(run(args));
  }
}

TEST_F(Cli, BatchExitCodes) {
  expect_accepted(run({"batch", file("b.json", R"([{"pooling_params":{"extra_kwargs":{"compressed_token_type_ids":2}},"seq_len":5},{"pooling_params":null,"seq_len":4}])").string()}),
                  Json::parse(R"({"token_type_ids":[0,0,1,1,1,0,0,0,0]})"));
  expect_accepted(run({"batch", file("n.json", R"([{"pooling_params":null,"seq_len":4},{"pooling_params":{"task":"classify"},"seq_len":2}])").string()}),
                  Json::parse(R"({"token_type_ids":null})"));
  expect_rejected(run({"batch", file("neg.json", R"([{"pooling_params":null,"seq_len":-1}])").string()}));
  expect_rejected(run({"batch", file("obj.json", "{}").string()}));
  expect_usage_error(run({"batch", "--x"}));
}

TEST_F(Cli, ParamsExitCodes) {
  const std::string object = R"({"task":"classify","extra_kwargs":{"compressed_token_type_ids":3}})";
  const Json wire = Json::parse(R"([null,null,null,null,"classify",false,null,null,{"compressed_token_type_ids":3}])");
  auto encoded = run({"params", "encode", file("p.json", object).string()});
  ASSERT_EQ(encoded.exit_code, 0) << show(encoded);
  EXPECT_EQ(parse_stdout(encoded), wire);
  EXPECT_EQ(parse_stdout(encoded).dump(), wire.dump());

  auto decoded = run({"params", "decode", file("w.json", wire.dump()).string()});
  ASSERT_EQ(decoded.exit_code, 0) << show(decoded);
  Json back = parse_stdout(decoded);
  EXPECT_EQ(back["task"], "classify");
  EXPECT_EQ(back["extra_kwargs"], Json::parse(R"({"compressed_token_type_ids":3})"));
  EXPECT_EQ(back["output_kind"], "FINAL_ONLY");
  EXPECT_EQ(back.size(), 10u);

  expect_rejected(run({"params", "encode", file("s.json", R"({"task":"score"})").string()}),
                  "`score` task was removed; use `classify` instead.");
  expect_rejected(run({"params", "decode", file("k.json", R"([null,null,null,null,null,false,null,null,null,1])").string()}));
  expect_rejected(run({"params", "decode", file("l.json", "[1,2,3,4,5,6,7,8,9,10,11]").string()}));
  expect_usage_error(run({"params"}));
  expect_usage_error(run({"params", "frob"}));
  expect_usage_error(run({"params", "encode", "--json"}));
  expect_usage_error(run({"params", "encode", "a", "b"}));
}

TEST_F(Cli, VerifyExitCodes) {
  auto ok = run({"verify", file("v.json", R"({"pooling_params":{"task":"classify"}})").string()});
  ASSERT_EQ(ok.exit_code, 0) << show(ok);
  Json params = parse_stdout(ok);
  EXPECT_EQ(params["task"], "classify");
  EXPECT_EQ(params["use_activation"], true);
  EXPECT_EQ(params["skip_reading_prefix_cache"], false);
  expect_rejected(run({"verify", file("d.json", R"({"pooling_params":{"task":"embed","dimensions":0}})").string()}),
                  "Model 'cross-encoder/ms-marco-MiniLM-L-6-v2' does not support Matryoshka embeddings; "
                  "dimensions must be unset. Received dimensions=0, outside valid numeric range [1, 384].");
  expect_rejected(run({"verify", file("m.json", R"({"model":{}})").string()}));
  expect_usage_error(run({"verify", "--x"}));
}

TEST_F(Cli, UnknownCommandOrNoneIsAUsageError) {
  expect_usage_error(run({}));
  expect_usage_error(run({"frobnicate"}));
  expect_usage_error(run({"PREPROCESS"}));
}

TEST_F(Cli, TopLevelHelp) {
  auto r = run({"--help"});
  EXPECT_EQ(r.exit_code, 0) << show(r);
  for (const char* command : {"preprocess", "compress", "reconstruct", "batch", "params", "verify"})
    EXPECT_NE(r.out.find(command), std::string::npos) << command << "\n" << r.out;
}

TEST_F(Cli, HelpForEachCommandMentionsAnExample) {
  const std::vector<std::vector<std::string>> cases{
      {"preprocess", "--help"}, {"compress", "--help"},      {"reconstruct", "--help"},
      {"batch", "--help"},      {"params", "--help"},        {"verify", "--help"},
      {"params", "encode", "--help"}, {"reconstruct", "1", "--help"},
  };
  for (const auto& args : cases) {
    SCOPED_TRACE(args[0] + " " + args[1]);
    auto r = run(args);
    EXPECT_EQ(r.exit_code, 0) << show(r);
    EXPECT_NE(r.out.find("Example"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("poolcheck " + args[0]), std::string::npos) << r.out;
  }
}

TEST_F(Cli, HelpExamplesWork) {
  // The examples the help texts print give what they say.
  expect_accepted(run({"compress"}, "[0,0,1,1]"), Json::parse(R"({"compressed_token_type_ids":2})"));
  expect_accepted(run({"reconstruct", "2", "4"}), Json::parse(R"({"token_type_ids":[0,0,1,1]})"));
  auto rerank = run({"preprocess"}, R"({"endpoint":"rerank","request":{"query":"what is bert","documents":["bert is a model","a cat"]}})");
  ASSERT_EQ(rerank.exit_code, 0) << show(rerank);
  EXPECT_EQ(parse_stdout(rerank)["outputs"].size(), 2u);
}

// ---- msgpack round trip ------------------------------------------------------

TEST_F(Cli, ParamsMsgpackRoundTripThroughFiles) {
  const std::vector<std::string> objects{
      R"({"task":"classify","extra_kwargs":{"compressed_token_type_ids":3}})",
      R"({})",
      R"({"use_activation":false,"dimensions":256,"step_tag_id":-7,"returned_token_ids":[1,2,3],"task":"token_embed","requires_token_ids":true,"skip_reading_prefix_cache":true,"late_interaction_params":{"mode":"cache_query","query_key":"q-1","query_uses":4},"extra_kwargs":{"b":[1,{"c":null}],"a":"x","f":1.5},"output_kind":"FINAL_ONLY"})",
      R"({"task":"some-plugin-task","extra_kwargs":{"nested":{"deep":[true,false,null,"\u00e9"]},"big":-9223372036854775808}})",
  };
  int i = 0;
  for (const auto& object : objects) {
    SCOPED_TRACE(object);
    const fs::path input = file("obj-" + std::to_string(i) + ".json", object);
    // Object form as the tool normalises it (all ten keys).
    auto via_json = run({"params", "encode", input.string()});
    ASSERT_EQ(via_json.exit_code, 0) << show(via_json);
    auto expected = run({"params", "decode", file("wire-" + std::to_string(i) + ".json", via_json.out).string()});
    ASSERT_EQ(expected.exit_code, 0) << show(expected);

    auto packed = run({"params", "encode", "--msgpack", input.string()});
    ASSERT_EQ(packed.exit_code, 0) << show(packed);
    ASSERT_FALSE(packed.out.empty());
    EXPECT_EQ(static_cast<unsigned char>(packed.out[0]) & 0xF0, 0x90) << "a MessagePack fixarray";
    const fs::path bytes = file("packed-" + std::to_string(i) + ".msgpack", packed.out);
    auto unpacked = run({"params", "decode", "--msgpack", bytes.string()});
    ASSERT_EQ(unpacked.exit_code, 0) << show(unpacked);
    EXPECT_EQ(parse_stdout(unpacked), parse_stdout(expected));
    EXPECT_EQ(parse_stdout(unpacked)["output_kind"], "FINAL_ONLY");

    // Flag position does not matter, and stdin works for binary input too.
    auto from_stdin = run({"params", "--msgpack", "decode", "-"}, packed.out);
    ASSERT_EQ(from_stdin.exit_code, 0) << show(from_stdin);
    EXPECT_EQ(from_stdin.out, unpacked.out);
    ++i;
  }
}

TEST_F(Cli, ParamsMsgpackSpecExampleBytes) {
  auto packed = run({"params", "encode", "--msgpack"}, R"({"task":"classify","extra_kwargs":{"compressed_token_type_ids":3}})");
  ASSERT_EQ(packed.exit_code, 0) << show(packed);
  // fixarray(9): nil x4, "classify", false, nil x2, {"compressed_token_type_ids": 3}
  const std::string expected = "\x99\xc0\xc0\xc0\xc0\xa8"s + "classify" + "\xc2\xc0\xc0\x81\xb9"s +
                               "compressed_token_type_ids" + "\x03"s;
  EXPECT_EQ(packed.out, expected);
}

TEST_F(Cli, ParamsMsgpackDecodeRejectsGarbage) {
  expect_rejected(run({"params", "decode", "--msgpack", file("g.bin", "\xc1").string()}));
  expect_rejected(run({"params", "decode", "--msgpack", file("t.bin", "\x99\xc0").string()}));
  expect_rejected(run({"params", "decode", "--msgpack", file("e.bin", "").string()}));
  // JSON text is not MessagePack of an array.
  expect_rejected(run({"params", "decode", "--msgpack", file("j.bin", "[null]").string()}));
}

// ---- input from stdin, files -------------------------------------------------

TEST_F(Cli, StdinWithDashAndWithNoArgument) {
  const Json expected = Json::parse(R"({"compressed_token_type_ids":1})");
  expect_accepted(run({"compress", "-"}, "[0,1,1]"), expected);
  expect_accepted(run({"compress"}, "[0,1,1]"), expected);
  auto dash = run({"preprocess", "-"}, kScoreRequest);
  auto none = run({"preprocess"}, kScoreRequest);
  auto path = run({"preprocess", file("r.json", kScoreRequest).string()});
  ASSERT_EQ(dash.exit_code, 0) << show(dash);
  EXPECT_EQ(dash.out, none.out);
  EXPECT_EQ(dash.out, path.out);
  expect_accepted(run({"batch", "-"}, R"([{"pooling_params":null,"seq_len":3}])"), Json::parse(R"({"token_type_ids":null})"));
  expect_accepted(run({"params", "encode"}, R"({"task":"embed"})"), Json::parse(R"([null,null,null,null,"embed"])"));
  expect_accepted(run({"params", "decode", "-"}, R"([null,null,null,null,"embed"])"),
                  Json::parse(R"({"use_activation":null,"dimensions":null,"step_tag_id":null,"returned_token_ids":null,"task":"embed","requires_token_ids":false,"skip_reading_prefix_cache":null,"late_interaction_params":null,"extra_kwargs":null,"output_kind":"FINAL_ONLY"})"));
  auto verify = run({"verify"}, R"({"pooling_params":{"task":"plugin"}})");
  ASSERT_EQ(verify.exit_code, 0) << show(verify);
  EXPECT_EQ(parse_stdout(verify)["skip_reading_prefix_cache"], true);
  // Empty stdin is a rejected input, not a usage error.
  expect_rejected(run({"compress"}, ""));
}

TEST_F(Cli, UnreadableFileIsAUsageError) {
  const std::string missing = (dir_ / "does-not-exist.json").string();
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"preprocess", missing}, {"compress", missing}, {"batch", missing},
                                             {"verify", missing}, {"params", "encode", missing},
                                             {"params", "decode", "--msgpack", missing}}) {
    SCOPED_TRACE(args[0]);
    expect_usage_error(run(args));
  }
  // A file without read permission (skipped when running as root, who can read anything).
  const fs::path locked = file("locked.json", "[0]");
  fs::permissions(locked, fs::perms::none);
  if (geteuid() != 0) expect_usage_error(run({"compress", locked.string()}));
  fs::permissions(locked, fs::perms::owner_all);
}

// `poolcheck coverage` needs the coverage build (tools/coverage); its
// arguments are checked before anything else.
TEST_F(Cli, CoverageRejectsBadArgumentsBeforeLookingForTheBuild) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"coverage", "--fail-under-lines", "101"},
           {"coverage", "--fail-under-branches=-1"},
           {"coverage", "--fail-under-lines", "ninety"},
           {"coverage", "--fail-under-lines"},
           {"coverage", "--jobs", "2"},
           {"coverage", "build/coverage"}}) {
    SCOPED_TRACE(args.back());
    auto r = run(args);
    expect_usage_error(r);
    EXPECT_EQ(r.err.rfind("poolcheck coverage: ", 0), 0u) << show(r);
  }
  auto help = run({"coverage", "--help"});
  EXPECT_EQ(help.exit_code, 0) << show(help);
  EXPECT_NE(help.out.find("Example"), std::string::npos) << show(help);
}

TEST_F(Cli, DirectoryAsInputIsNotAccepted) {
  auto r = run({"compress", dir_.string()});
  EXPECT_NE(r.exit_code, 0) << show(r);
  EXPECT_TRUE(r.exit_code == 1 || r.exit_code == 2) << show(r);
}

TEST_F(Cli, FileNamesWithSpacesAndQuotes) {
  const fs::path odd = file("it's a \"file\" $(x).json", "[0,1]");
  expect_accepted(run({"compress", odd.string()}), Json::parse(R"({"compressed_token_type_ids":1})"));
}

TEST_F(Cli, BinaryAndOversizedInputIsRejectedCleanly) {
  expect_rejected(run({"preprocess"}, "\xff\xfe\x00\x01"s));
  expect_rejected(run({"compress"}, "[0]\0[1]"s));
  expect_rejected(run({"compress"}, "[1e400]"));
  std::string big = "[" + std::string(8 * 1024 * 1024, ' ') + "]";
  expect_rejected(run({"compress", file("big.json", big).string()}));
  std::string deep = std::string(65, '[') + std::string(65, ']');
  expect_rejected(run({"compress"}, deep));
}

// ---- the shipped corpus -------------------------------------------------------

TEST_F(Cli, EveryRequestSeedGivesExitZeroOrOne) {
  const fs::path seeds = fs::path(POOLCHECK_SOURCE_DIR) / "corpus" / "request" / "seeds";
  ASSERT_TRUE(fs::is_directory(seeds)) << seeds;
  // The messages of the spec-quoted errors the seeds exercise.
  const std::map<std::string, std::string> messages{
      {"error-empty-cache-salt.json", "Parameter 'cache_salt' must be a non-empty string if provided."},
      {"error-negative-top-n.json", "top_n: Input should be greater than or equal to 0"},
      {"error-normalize-removed.json", "Parameter `normalize` was removed; use `use_activation` instead."},
      {"error-task-overwrite.json", "You cannot overwrite self.task='embed' with task='classify'!"},
      {"error-unknown-model.json", "The model `some/other-model` does not exist."},
      {"error-cache-salt-forbidden-char.json",
       R"(Parameter 'cache_salt' must be at most 128 characters and must not contain '@', '/', '\\', or NUL.)"},
      {"error-input-lengths-mismatch.json", "Input lengths must be either 1:1, 1:N or N:N"},
      {"error-reserved-chat-template-kwargs.json",
       "chat_template_kwargs contains reserved keys that conflict with fixed scorer arguments: {'chat_template', "
       "'tools'}"},
      {"error-two-images-in-a-pair.json", "Only one multi-modal item is supported"},
  };
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(seeds))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty());
  int errors = 0;
  for (const auto& path : files) {
    const std::string name = path.filename().string();
    SCOPED_TRACE(name);
    auto r = run({"preprocess", path.string()});
    if (name.rfind("error-", 0) == 0) {
      ++errors;
      auto it = messages.find(name);
      Json body = expect_rejected(r, it == messages.end() ? std::nullopt : std::optional<std::string>(it->second));
      if (name == "error-unknown-model.json") {
        EXPECT_EQ(body["error"]["code"], 404);
      }
      if (name == "error-context-length.json") {
        const std::string message = body["error"]["message"].get<std::string>();
        EXPECT_EQ(message.rfind("You passed ", 0), 0u) << message;
        EXPECT_NE(message.find(" input tokens and requested 0 output tokens. However, the model's context length is only "),
                  std::string::npos)
            << message;
      }
    } else {
      ASSERT_EQ(r.exit_code, 0) << show(r);
      Json out = parse_stdout(r);
      ASSERT_TRUE(out.contains("outputs")) << r.out;
      EXPECT_FALSE(out["outputs"].empty());
    }
    // Deterministic: the same input gives byte-identical output.
    auto again = run({"preprocess", path.string()});
    EXPECT_EQ(again.exit_code, r.exit_code);
    EXPECT_EQ(again.out, r.out);
  }
  EXPECT_GE(errors, 5);
}


// ---- preprocess --jsonl: one envelope per line (the fidelity test's batch mode) ----

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
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

TEST_F(Cli, JsonlEachLineIsWhatTheSingleShotCommandPrints) {
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

TEST_F(Cli, JsonlStdinDashAndNoArgumentAreTheSameAsAFile) {
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

TEST_F(Cli, JsonlEmptyLinesCountAndAFinalLineNeedsNoNewline) {
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

TEST_F(Cli, JsonlManyLinesKeepTheirOrder) {
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

TEST_F(Cli, JsonlUsageErrors) {
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

TEST_F(Cli, JsonlHelpDocumentsItWithAWorkingExample) {
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
