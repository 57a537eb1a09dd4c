#pragma once

#include "fakellmserver.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

// Scripted answers for FakeLlmServer, byte for byte in the wire formats of the servers that
// Sandpiper talks to: OpenAI, Ollama's /v1 and llama.cpp's server. Keys come in each server's
// own order and strings in its own escaping (Ollama, written in Go, escapes <, > and &).
// Server-Sent Events are "data: <compact JSON>" blocks, ended by "data: [DONE]".
namespace Sandpiper::Test::FakeStreams {

// One function call the scripted model makes.
struct ScriptedCall {
    QString id; // generated in the server's style when empty
    QString name;
    QString arguments; // the raw JSON text, sent as it is (invalid JSON included)
};

// How the whole byte stream is cut into the pieces that the server writes one by one.
struct SplitMode {
    enum class Kind {
        PerEvent,    // one piece per SSE event, as real servers flush
        Whole,       // everything in one piece
        EveryNBytes, // pieces of BYTES bytes
        Random,      // pieces of 1 to BYTES bytes from SEED, plus a cut inside every multi-byte
                     // UTF-8 sequence and between every CR and LF
    };
    Kind kind = Kind::PerEvent;
    int bytes = 0;
    quint32 seed = 0;

    static SplitMode perEvent() { return {}; }
    static SplitMode whole() { return {Kind::Whole, 0, 0}; }
    static SplitMode everyNBytes(int bytes) { return {Kind::EveryNBytes, bytes, 0}; }
    static SplitMode random(quint32 seed, int largestPiece = 16) { return {Kind::Random, largestPiece, seed}; }
};

// How the events are put on the wire; the defaults are what the imitated servers send.
struct StreamOptions {
    SplitMode split = {};
    bool crlf = false;              // CRLF line endings instead of LF
    bool keepAliveComments = false; // ": OPENROUTER PROCESSING" first, ": ping" between events
    bool eventLines = false;        // "event: message" before every data line
    bool done = true;               // end with "data: [DONE]"
    std::chrono::milliseconds chunkDelay{0};
};

enum class Shape { OpenAi, Ollama, LlamaCpp };
enum class ReasoningField {
    ReasoningContent, // "reasoning_content": llama.cpp, DeepSeek, vLLM
    Reasoning,        // "reasoning": Ollama, OpenRouter
};
enum class CallOrder {
    OneAfterAnother, // each call's fragments in turn, by index, as OpenAI sends them
    Interleaved,     // the calls' fragments alternate, told apart only by their index
    WithoutIndex,    // no "index" field: a fragment with a new id starts the next call
};

// What the scripted model says in one answer: reasoning, then text, then calls.
struct Turn {
    QString reasoning = {};
    std::optional<ReasoningField> reasoningField = {}; // the shape's own when unset
    QString text = {};
    QList<ScriptedCall> calls = {};
    int pieces = 4;           // deltas the reasoning and the text are each cut into
    int fragmentsPerCall = 4; // deltas each call's arguments are cut into (Ollama: always one)
    CallOrder callOrder = CallOrder::OneAfterAnother;
    qint64 promptTokens = 42; // what the usage says the request came to
    // Where the text is cut into deltas, instead of PIECES equal parts.
    QList<qsizetype> textCuts = {};
};

// The general builder; the named ones below are the common cases.
FakeResponse stream(Shape shape, const Turn &turn, const StreamOptions &options = {});

FakeResponse openAiText(const QString &text, int pieces = 4, const StreamOptions &options = {});
FakeResponse openAiToolCalls(const QList<ScriptedCall> &calls, int fragmentsPerCall = 4,
                             const StreamOptions &options = {}, CallOrder order = CallOrder::OneAfterAnother,
                             const QString &leadingText = {});
// Calls whose deltas lack "index", in OpenAI's envelope (some compatible servers do this).
FakeResponse missingIndexToolCalls(const QList<ScriptedCall> &calls, int fragmentsPerCall = 4,
                                   const StreamOptions &options = {});

FakeResponse ollamaText(const QString &text, int pieces = 4, const StreamOptions &options = {});
// A whole call in one chunk, then finish_reason "stop" although a call was made.
FakeResponse ollamaToolCall(const QString &name, const QString &argumentsJson, const StreamOptions &options = {});
FakeResponse ollamaToolCalls(const QList<ScriptedCall> &calls, const StreamOptions &options = {});

FakeResponse llamaCppReasoning(const QString &reasoning, const QString &answer,
                               ReasoningField field = ReasoningField::ReasoningContent, int pieces = 4,
                               const StreamOptions &options = {});

// A normal start (and PARTIALTEXT), then {"error":{"message":…,"type":"server_error"}} as an event.
FakeResponse streamError(const QString &message, const QString &partialText = {}, const StreamOptions &options = {});
// OpenAI's text stream of PARTIALTEXT with no end, then TAIL as it is (the exact bytes a server
// sends next, such as its error event), and the stream closes normally.
FakeResponse textThenRaw(const QString &partialText, const QByteArray &tail);
// Text deltas, then the connection closes: no finish_reason, no [DONE], no terminating chunk.
FakeResponse cutStream(const QString &partialText, const StreamOptions &options = {});
// OpenAI's text stream with DELAY between the pieces, for clients that give up mid-way.
FakeResponse slowText(const QString &text, int pieces, std::chrono::milliseconds delay,
                      const StreamOptions &options = {});

// An error answer in OpenAI's format (application/json). CODE defaults to OpenAI's for the
// status ("invalid_api_key" for 401, "rate_limit_exceeded" for 429), else null.
FakeResponse httpError(int status, const QString &message, std::optional<int> retryAfterSeconds = std::nullopt,
                       const QString &code = {});
// A "chat.completion" object, for requests made without "stream": true.
FakeResponse nonStreaming(const QString &content, const QList<ScriptedCall> &calls = {});
// What GET /v1/models answers.
FakeResponse modelList(const QStringList &ids);

// The servers' own APIs beside the OpenAI-compatible one, as they answer about the context
// window: llama.cpp's GET /props (N_CTX per slot), Ollama's POST /api/show (the model's
// CONTEXTLENGTH, and num_ctx among its parameters where the Modelfile sets one) and GET /api/ps
// (the loaded model's context_length, which newer versions report), LM Studio's
// GET /api/v0/models, vLLM's and OpenRouter's GET /v1/models. VISION: the model takes images
// (llama.cpp with --mmproj, Ollama's "vision" capability, LM Studio's "vlm").
FakeResponse llamaCppProps(qint64 nCtx, bool vision = false);
FakeResponse ollamaShow(qint64 contextLength, std::optional<qint64> numCtx = std::nullopt, bool vision = false);
FakeResponse ollamaRunning(const QString &model, std::optional<qint64> contextLength);
FakeResponse lmStudioModels(const QString &id, qint64 maxContextLength, std::optional<qint64> loadedContextLength,
                            bool vision = false);
FakeResponse vllmModels(const QString &id, qint64 maxModelLen);
FakeResponse openRouterModels(const QString &id, qint64 contextLength);

// The answer of each server to a prompt of PROMPTTOKENS that exceeds its WINDOW, in its own words.
enum class ContextErrorShape { OpenAi, LlamaCpp, Vllm, LmStudio, Ollama, Mistral, Anthropic, OpenRouter };
FakeResponse contextError(ContextErrorShape shape, qint64 promptTokens, qint64 window);

// An SSE response of arbitrary data payloads, for shapes that no builder covers.
FakeResponse fromPayloads(const QList<QByteArray> &payloads, const StreamOptions &options = {});
// Cuts STREAM into pieces; joined again they give STREAM.
QList<QByteArray> split(const QByteArray &stream, SplitMode mode);

} // namespace Sandpiper::Test::FakeStreams
