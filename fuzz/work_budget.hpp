#pragma once
// How deep each fuzz target checks an input (laws::CheckDepth), and why.
//
// The work budget. Padding to max_length makes every pair max_model_len
// tokens long, and the spec lets a request output up to 2^24 token ids
// (10.15): a 200-byte input then pre-processes, renders and checks 16M
// tokens, up to libFuzzer's timeout under ASan. That is correct behaviour, not
// a hang, so a campaign that reports it as a `timeout-` finding only adds
// noise. The target decides such inputs without building them: the core's
// plan (plan_prompt_lengths, the same checks by the same code) and the laws of
// its verdict, the token total of spec 10.15 among them, which only a request
// this large meets; LLVMFuzzerTestOneInput then returns -1, so libFuzzer keeps
// them out of the corpus. `poolcheck repro` and the properties check them in
// full. The check reads the envelope it has parsed anyway, so the budget costs
// no parse of its own.
//
// The full check. Determinism, and coercion and spelling invariance (one run
// of the input respelled both ways), pre-process the input again, and the wire
// round trip of every pair's params encodes and
// decodes each pair's params three ways: together they cost more than
// everything else a check does (profile in Fuzzing.md, "Performance"). The
// target gives them to one input in kFullCheckOneIn, chosen by the input's
// hash, so a finding reproduces; every other law runs on every input, and
// `poolcheck repro` and the properties give every input the full check. The
// params_wire target checks the wire round trip on every input of its own, and
// printed-reads-back runs on every input whose document holds a value the
// printer writes by hand (NaN, an infinity, a big integer): those cases are
// rare in a campaign and the slips they show are the printer's own.
//
// The commands. `params_wire`, `token_types` and `verify` also hand each
// input, in its JSON form, to the `poolcheck` commands that read it (params,
// compress, reconstruct, batch, verify) and compare their output with the
// core's: a JSON dump and parse of the whole input, and for `batch` a batch
// of requests with params. That was twice the rest of the check in
// `token_types`, and a third of `verify`'s (profile in Fuzzing.md). They are these
// targets' full check, given to one input in kFullCheckOneIn by its hash; a
// slip in a command's JSON layer shows on short inputs as well as long ones,
// so a campaign still meets it, after 8 times the executions. `token_types`
// hands the commands the first kCommandTypesLimit types only: the JSON dump and
// parse of a list of 2,000 types was most of that target's time (Fuzzing.md,
// "Performance"), and the commands' JSON layer reads a list element by element,
// at 64 as at 2,000 (the list's length limit, 2^24, is past any fuzz input). The
// `verify` target's full check also holds the wire round trip of the verified
// params; the `params_wire` target round-trips every input's params.
//
// The law sample. Even with the full check on one input in 8, the laws of
// every input's first run cost three times the core (bench/fuzz_speed
// --core-only: Fuzzing.md, "Session of 2026-12-07 (eleventh)"), and no cut of
// one law moves that. So under an engine the core runs on every input, which
// is what libFuzzer's coverage and the sanitizers see, and the laws judge an
// input when its outcome has a shape the process has not met (then with the
// full check too), or when its hash picks it, one in kLawsOneIn
// (laws::LawSample; the full check then still goes to one in kFullCheckOneIn
// of those). A new kind of answer, a new error
// message or a new field, an array or number of a new size class, is judged
// the first time it appears; a slip that leaves the shape as it was (a wrong
// value where a right one of the same kind was due) is judged on one input in
// kLawsOneIn, so it needs up to that many times the executions. The replay
// drivers, `poolcheck repro` and the properties judge every input, and a
// finding replayed alone is the first of its shape, so it reproduces.
// token_types samples one input in kTokenTypesLawsOneIn: its core is a single
// pass over a list, its laws a worker batch, packing and, on the full check,
// three commands' JSON, so at 1 in 16 the check on the sample was still 89%
// of the target's own time (perf, Fuzzing.md), and its catalogued mutants are met
// within a dozen executions, in the seeds' own pass. verify samples one in
// kVerifyLawsOneIn: a classify request handed the pooler's default dimensions
// (`verify-dimensions-on-classify`) is refused with a message other inputs
// already gave, so only the hash picks it, and at one in 16 one libFuzzer seed
// in three met it within 60 s (Fuzzing.md, "Session of 2026-12-07
// (thirteenth)"). An input the laws judge runs the core twice, alone and
// then in the check, which keeps its own copies from before the core ran
// (nothing-mutated); that is paid on the judged inputs only.
#include <cstddef>
#include <cstdint>

#include "properties/laws/check.hpp"

namespace poolcheck::fuzz {

using laws::kPaddedTokenBudget;
inline constexpr std::uint32_t kFullCheckOneIn = 8;
inline constexpr std::uint32_t kLawsOneIn = 16;
inline constexpr std::uint32_t kTokenTypesLawsOneIn = 64;
inline constexpr std::uint32_t kVerifyLawsOneIn = 8;

inline constexpr laws::CheckDepth kRequestTargetCheck{kPaddedTokenBudget, kFullCheckOneIn, 0, kLawsOneIn};
inline constexpr laws::CheckDepth kCommandsTargetCheck{0, kFullCheckOneIn, 0, kLawsOneIn};
inline constexpr laws::CheckDepth kVerifyTargetCheck{0, kFullCheckOneIn, 0, kVerifyLawsOneIn};
inline constexpr std::size_t kCommandTypesLimit = 64;
inline constexpr laws::CheckDepth kTokenTypesTargetCheck{0, kFullCheckOneIn, kCommandTypesLimit, kTokenTypesLawsOneIn};

}  // namespace poolcheck::fuzz
