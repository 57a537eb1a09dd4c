// fake-llm-server: a scripted language model behind OpenAI's HTTP API, for tests that run the
// client in another process (sandpiper-cli, the app, scripts).
//
//   fake-llm-server [--port N] SCRIPT.json
//
// Once ready it prints exactly one line on stdout, "listening on http://127.0.0.1:PORT/v1".
// Each POST /v1/chat/completions gets the next step of the script; GET /v1/models lists
// "gpt-4o-mini". When the steps are used up, the next chat request gets a 500 and the server
// exits (status 0). SIGTERM and SIGINT end it at once.
//
// SCRIPT.json is a JSON array of steps, answered in order:
//
//   {"text": "2 + 2 is 4."}
//   {"tool_calls": [{"name": "execute_python_code", "arguments": {"code": "2 + 2"}}]}
//       "arguments" is an object (sent as its compact JSON) or a string (sent as it is, valid
//       JSON or not); an optional "id" replaces the generated call id. A "text" next to
//       "tool_calls" streams before the calls.
//   {"status": 429, "retry_after": 1, "message": "Rate limit reached"}
//       an error answer in OpenAI's format; "retry_after" (seconds) and "message" optional.
//
// Optional keys of streamed steps:
//   "reasoning": "…"     streamed before the text ("reasoning_content"; Ollama: "reasoning")
//   "shape": "openai" | "ollama" | "llamacpp"     whose wire format to imitate (default openai)
//   "pieces": N          deltas the text and the reasoning are each cut into (default 4)
//   "fragments": N       deltas each call's arguments are cut into (default 4; Ollama: 1)
//   "delay_ms": N        pause between chunks
//   "split": "events" | "every:N" | "random:SEED"    how the bytes are cut into writes
//   "cut": true          close the connection after the deltas: no finish_reason, no [DONE]
#include "fakellmserver.h"
#include "fakestreams.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSocketNotifier>

#include <csignal>
#include <cstdio>
#include <optional>
#include <sys/socket.h>
#include <unistd.h>

using namespace Sandpiper::Test;
using namespace Sandpiper::Test::FakeStreams;

namespace {

int signalSockets[2] = {-1, -1};

// Only async-signal-safe calls here: the event loop reads the byte and quits.
void onTerminationSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const ssize_t written = ::write(signalSockets[0], &byte, 1);
}

std::optional<SplitMode> splitModeFrom(const QString &text)
{
    if (text == QLatin1String("events"))
        return SplitMode::perEvent();
    const QString kind = text.section(QLatin1Char(':'), 0, 0);
    bool ok = false;
    const uint value = text.section(QLatin1Char(':'), 1).toUInt(&ok);
    if (ok && value > 0 && kind == QLatin1String("every"))
        return SplitMode::everyNBytes(int(value));
    if (ok && kind == QLatin1String("random"))
        return SplitMode::random(value);
    return std::nullopt;
}

std::optional<FakeResponse> responseFor(const QJsonObject &step, QString *error)
{
    if (step.contains(QLatin1String("status"))) {
        const int status = step.value(QLatin1String("status")).toInt();
        if (status < 400 || status > 599) {
            *error = QStringLiteral("\"status\" must be an HTTP error status (400 to 599)");
            return std::nullopt;
        }
        std::optional<int> retryAfter;
        if (step.contains(QLatin1String("retry_after")))
            retryAfter = step.value(QLatin1String("retry_after")).toInt();
        return httpError(status, step.value(QLatin1String("message")).toString(QStringLiteral("scripted error")),
                         retryAfter);
    }

    Turn turn;
    turn.text = step.value(QLatin1String("text")).toString();
    turn.reasoning = step.value(QLatin1String("reasoning")).toString();
    turn.pieces = step.value(QLatin1String("pieces")).toInt(turn.pieces);
    turn.fragmentsPerCall = step.value(QLatin1String("fragments")).toInt(turn.fragmentsPerCall);
    const QJsonArray calls = step.value(QLatin1String("tool_calls")).toArray();
    for (const QJsonValue &value : calls) {
        const QJsonObject call = value.toObject();
        const QJsonValue arguments = call.value(QLatin1String("arguments"));
        if (call.value(QLatin1String("name")).toString().isEmpty()) {
            *error = QStringLiteral("every tool call needs a \"name\"");
            return std::nullopt;
        }
        turn.calls.append({call.value(QLatin1String("id")).toString(), call.value(QLatin1String("name")).toString(),
                           arguments.isObject()
                               ? QString::fromUtf8(QJsonDocument(arguments.toObject()).toJson(QJsonDocument::Compact))
                               : arguments.toString()});
    }
    if (turn.text.isEmpty() && turn.reasoning.isEmpty() && turn.calls.isEmpty()) {
        *error = QStringLiteral("a step needs \"text\", \"reasoning\", \"tool_calls\" or \"status\"");
        return std::nullopt;
    }

    const QString shapeName = step.value(QLatin1String("shape")).toString(QStringLiteral("openai"));
    Shape shape = Shape::OpenAi;
    if (shapeName == QLatin1String("ollama")) {
        shape = Shape::Ollama;
    } else if (shapeName == QLatin1String("llamacpp")) {
        shape = Shape::LlamaCpp;
    } else if (shapeName != QLatin1String("openai")) {
        *error = QStringLiteral("unknown \"shape\": %1 (openai, ollama or llamacpp)").arg(shapeName);
        return std::nullopt;
    }

    StreamOptions options;
    options.chunkDelay = std::chrono::milliseconds(step.value(QLatin1String("delay_ms")).toInt());
    if (step.contains(QLatin1String("split"))) {
        const std::optional<SplitMode> split = splitModeFrom(step.value(QLatin1String("split")).toString());
        if (!split) {
            *error = QStringLiteral("\"split\" must be \"events\", \"every:N\" or \"random:SEED\"");
            return std::nullopt;
        }
        options.split = *split;
    }

    if (step.value(QLatin1String("cut")).toBool()) {
        if (shape != Shape::OpenAi || !turn.calls.isEmpty() || !turn.reasoning.isEmpty()) {
            *error = QStringLiteral("\"cut\" works on OpenAI-shaped text steps only");
            return std::nullopt;
        }
        return cutStream(turn.text, options);
    }
    return stream(shape, turn, options);
}

bool loadScript(const QString &path, QList<FakeResponse> *responses, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QStringLiteral("offset %1: %2").arg(parseError.offset).arg(parseError.errorString());
        return false;
    }
    if (!document.isArray()) {
        *error = QStringLiteral("the script must be a JSON array of steps");
        return false;
    }
    const QJsonArray steps = document.array();
    for (qsizetype i = 0; i < steps.size(); ++i) {
        QString stepError;
        const std::optional<FakeResponse> response = responseFor(steps.at(i).toObject(), &stepError);
        if (!response) {
            *error = QStringLiteral("step %1: %2").arg(i).arg(stepError);
            return false;
        }
        responses->append(*response);
    }
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("fake-llm-server"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Serves a scripted language model over OpenAI's HTTP API."));
    parser.addHelpOption();
    const QCommandLineOption portOption(QStringLiteral("port"), QStringLiteral("Port on 127.0.0.1 (0: any free one)."),
                                        QStringLiteral("N"), QStringLiteral("0"));
    parser.addOption(portOption);
    parser.addPositionalArgument(QStringLiteral("script"), QStringLiteral("The script, a JSON array of steps."));
    parser.process(app);

    bool portOk = false;
    const uint port = parser.value(portOption).toUInt(&portOk);
    if (parser.positionalArguments().size() != 1 || !portOk || port > 65535) {
        std::fputs(qPrintable(parser.helpText()), stderr);
        return 2;
    }

    const QString scriptPath = parser.positionalArguments().constFirst();
    QList<FakeResponse> responses;
    QString error;
    if (!loadScript(scriptPath, &responses, &error)) {
        std::fprintf(stderr, "fake-llm-server: %s: %s\n", qPrintable(scriptPath), qPrintable(error));
        return 2;
    }

    FakeLlmServer server;
    for (FakeResponse &response : responses)
        server.enqueue(std::move(response));
    if (!server.listen(quint16(port))) {
        std::fprintf(stderr, "fake-llm-server: cannot listen on port %u\n", port);
        return 1;
    }
    QObject::connect(&server, &FakeLlmServer::outOfResponses, &app, &QCoreApplication::quit);

    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, signalSockets) != 0) {
        std::perror("fake-llm-server: socketpair");
        return 1;
    }
    QSocketNotifier terminationNotifier(signalSockets[1], QSocketNotifier::Read);
    QObject::connect(&terminationNotifier, &QSocketNotifier::activated, &app, &QCoreApplication::quit);
    std::signal(SIGTERM, onTerminationSignal);
    std::signal(SIGINT, onTerminationSignal);

    std::printf("listening on %s\n", qPrintable(server.baseUrl().toString()));
    std::fflush(stdout);
    return app.exec();
}
