// The commands that expose the reference core, one JSON document in, one out.
#include <charconv>
#include <iostream>

#include "cli/command_line.hpp"
#include "core/json_api.hpp"
#include "core/output_json.hpp"

namespace poolcheck::cli {
namespace {

constexpr const char* kInputNote =
    "Input is FILE, or standard input when FILE is '-' or missing. Output is JSON on stdout.\n"
    "Exit codes: 0 accepted, 1 rejected (the error body is printed), 2 usage error,\n"
    "3 internal error (a bug of the core).\n";

// A command that reads one input and maps it to one JSON result.
Command json_command(std::string name, std::string summary, std::string help,
                     Result<Json> (*run)(std::string_view)) {
  auto body = [name, run](const Args& args) {
    const ParsedArgs parsed = split_args(args);
    if (!parsed.flags.empty()) return usage_error(name, "unknown option " + parsed.flags[0]);
    if (parsed.positional.size() > 1) return usage_error(name, "takes at most one FILE");
    std::string bytes;
    if (!read_input(parsed.positional, bytes)) return kExitUsage;
    return print_result(run(bytes));
  };
  return Command{std::move(name), std::move(summary), std::move(help) + kInputNote, body};
}

bool parse_int64(const std::string& text, std::int64_t& out) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && !text.empty();
}

// One envelope, or with --jsonl one envelope per line (run_jsonl).
int run_preprocess(const Args& args) {
  const ParsedArgs parsed = split_args(args);
  bool jsonl = false;
  for (const auto& flag : parsed.flags) {
    if (flag != "--jsonl") return usage_error("preprocess", "unknown option " + flag);
    jsonl = true;
  }
  if (parsed.positional.size() > 1) return usage_error("preprocess", "takes at most one FILE");
  if (jsonl) return run_jsonl(parsed.positional, preprocess_json);
  std::string bytes;
  if (!read_input(parsed.positional, bytes)) return kExitUsage;
  return print_result(preprocess_json(bytes));
}

int run_reconstruct(const Args& args) {
  const ParsedArgs parsed = split_args(args);
  if (!parsed.flags.empty()) return usage_error("reconstruct", "unknown option " + parsed.flags[0]);
  if (parsed.positional.size() != 2) return usage_error("reconstruct", "expects K and LEN");
  std::int64_t k = 0;
  std::int64_t len = 0;
  if (!parse_int64(parsed.positional[0], k)) return usage_error("reconstruct", "K must be a 64-bit integer");
  if (!parse_int64(parsed.positional[1], len)) return usage_error("reconstruct", "LEN must be a 64-bit integer");
  return print_result(reconstruct_json(k, len));
}

int run_params(const Args& args) {
  ParsedArgs parsed = split_args(args);
  bool msgpack = false;
  for (const auto& flag : parsed.flags) {
    if (flag != "--msgpack") return usage_error("params", "unknown option " + flag);
    msgpack = true;
  }
  if (parsed.positional.empty()) return usage_error("params", "expects 'encode' or 'decode'");
  const std::string action = parsed.positional[0];
  parsed.positional.erase(parsed.positional.begin());
  if (action != "encode" && action != "decode")
    return usage_error("params", "expects 'encode' or 'decode', got '" + action + "'");
  if (parsed.positional.size() > 1) return usage_error("params", "takes at most one FILE");
  std::string bytes;
  if (!read_input(parsed.positional, bytes)) return kExitUsage;

  if (action == "decode") return print_result(msgpack ? params_decode_msgpack(bytes) : params_decode_json(bytes));
  if (!msgpack) return print_result(params_encode_json(bytes));
  auto encoded = params_encode_msgpack(bytes);
  if (!encoded) return print_result(encoded.error());
  std::cout.write(encoded->data(), static_cast<std::streamsize>(encoded->size()));
  return kExitOk;
}

}  // namespace

std::vector<Command> core_commands() {
  return {
      Command{"preprocess", "turn a score/rerank/LLM.score request into engine requests",
              "Usage: poolcheck preprocess [--jsonl] [FILE]\n\n"
              "Pre-processes one request envelope the way vLLM's cross-encoder front end does:\n"
              "validation, pairing, tokenisation, truncation, padding, token-type compression.\n\n"
              "  {\"endpoint\": \"score\" | \"rerank\" | \"llm.score\",\n"
              "   \"model\": {...model config, optional...},\n"
              "   \"request\": {...the request body, or the LLM.score call...}}\n\n"
              "Example:\n"
              "  echo '{\"endpoint\":\"rerank\",\"request\":{\"query\":\"what is bert\",\n"
              "        \"documents\":[\"bert is a model\",\"a cat\"]}}' | poolcheck preprocess\n\n"
              "--jsonl: batch mode. FILE holds one envelope per line (JSON Lines); for each input\n"
              "line, in order, one output line {\"exit\": 0|1|3, \"output\": ...}, where output is\n"
              "the JSON the single-shot command prints for that envelope and exit its exit code.\n"
              "An empty line is an input too (rejected). The command exits 0 once every line is\n"
              "done, 3 when some line was an internal error, 2 when FILE cannot be read.\n\n"
              "Example:\n"
              "  printf '%s\\n' '{\"endpoint\":\"rerank\",\"request\":{\"query\":\"q\",\"documents\":\"d\"}}' \\\n"
              "    '{\"endpoint\":\"rerank\",\"request\":{\"query\":\"q\",\"documents\":\"d\",\"top_n\":-1}}' \\\n"
              "    | poolcheck preprocess --jsonl\n"
              "  # {\"exit\":0,\"output\":{\"outputs\":[...]}}\n"
              "  # {\"exit\":1,\"output\":{\"error\":{\"message\":\"top_n: Input should be greater than or equal to 0\",...}}}\n\n" +
                  std::string(kInputNote),
              run_preprocess},
      json_command("compress", "compress a token-type list into the index of its first 1",
                   "Usage: poolcheck compress [FILE]\n\n"
                   "Input: a JSON array of integers. Output: {\"compressed_token_type_ids\": k}.\n\n"
                   "Example:\n  echo '[0,0,1,1]' | poolcheck compress   # {\"compressed_token_type_ids\":2}\n\n",
                   compress_json),
      Command{"reconstruct", "rebuild a token-type list from K and LEN",
              "Usage: poolcheck reconstruct K LEN\n\n"
              "Prints {\"token_type_ids\": [...]} with type[j] = 1 if j >= K else 0, j in [0, LEN).\n"
              "A negative K gives all ones; LEN < 0 is rejected (exit 1).\n\n"
              "Example:\n  poolcheck reconstruct 2 4   # {\"token_type_ids\":[0,0,1,1]}\n",
              run_reconstruct},
      json_command("batch", "rebuild a worker batch's concatenated token types",
                   "Usage: poolcheck batch [FILE]\n\n"
                   "Input: [{\"pooling_params\": {...object form...} or null, \"seq_len\": n}, ...].\n"
                   "Output: {\"token_type_ids\": [...]}, or null when no request carries\n"
                   "extra_kwargs.compressed_token_type_ids.\n\n"
                   "Example:\n"
                   "  echo '[{\"pooling_params\":{\"extra_kwargs\":{\"compressed_token_type_ids\":2}},\"seq_len\":5},\n"
                   "        {\"pooling_params\":null,\"seq_len\":4}]' | poolcheck batch\n"
                   "  # {\"token_type_ids\":[0,0,1,1,1,0,0,0,0]}\n\n",
                   batch_json),
      Command{"params", "convert PoolingParams between object form and wire form",
              "Usage: poolcheck params encode|decode [--msgpack] [FILE]\n\n"
              "encode: object form (JSON) -> the wire form's JSON view; with --msgpack, the\n"
              "        MessagePack bytes msgspec would send.\n"
              "decode: the wire form's JSON view -> object form; with --msgpack, read\n"
              "        MessagePack bytes instead.\n\n"
              "Example:\n"
              "  echo '{\"task\":\"classify\",\"extra_kwargs\":{\"compressed_token_type_ids\":3}}' \\\n"
              "    | poolcheck params encode\n"
              "  # [null,null,null,null,\"classify\",false,null,null,{\"compressed_token_type_ids\":3}]\n\n" +
                  std::string(kInputNote),
              run_params},
      json_command("verify", "run PoolingParams.verify against a model",
                   "Usage: poolcheck verify [FILE]\n\n"
                   "Input: {\"model\": {...}, \"pooling_params\": {...object form...}}.\n"
                   "Output: the verified params, object form.\n\n"
                   "Example:\n"
                   "  echo '{\"pooling_params\":{\"task\":\"classify\"}}' | poolcheck verify\n\n",
                   verify_json),
  };
}

}  // namespace poolcheck::cli
