#include "llm/modelprobe.h"

#include "logging.h"

#include <QBuffer>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonDocument>
#include <QPointer>
#include <QTimer>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

using Step = ModelReport::Step;
using Outcome = ModelReport::Step::Outcome;

constexpr auto plainQuestion = "Say hello in one short sentence.";
constexpr auto toolQuestion = "What time is it in Paris? Call the get_time tool to find out.";
constexpr auto parallelQuestion =
    "What time is it in Paris and in Tokyo? Call get_time once for each city, both calls in one answer.";
constexpr auto toolResult = "14:05";
constexpr auto fillerSentence = "The probe fills the window with this sentence to see that the server takes a "
                                "long prompt whole. ";
// The longest answers asked for: room for a model that thinks first, and a bound on the cost.
constexpr int answerLimit = 256;
constexpr int callLimit = 512;
// Tokens assumed per character where the server cannot count: a little more than English
// prose needs, so that the prompt stays below the window.
constexpr double estimatedTokensPerChar = 0.3;

ChatMessage message(ChatMessage::Role role, const QString &content)
{
    ChatMessage m;
    m.role = role;
    m.content = content;
    return m;
}

QList<ChatMessage> question(const char *text)
{
    return {message(ChatMessage::Role::System, QStringLiteral("You are a helpful assistant. Answer briefly.")),
            message(ChatMessage::Role::User, QString::fromUtf8(text))};
}

// What the model wrote, short enough for one line of the card.
QString excerpt(const QString &text)
{
    QString line = text.simplified();
    if (line.size() > 60)
        line = line.left(60) + QStringLiteral("…");
    return line;
}

QString describeCalls(const QList<ToolCall> &calls)
{
    QStringList parts;
    for (const ToolCall &call : calls)
        parts << QStringLiteral("%1(%2)").arg(call.name, excerpt(call.arguments));
    return parts.join(QStringLiteral(", "));
}

QString howCallsCame(const ChatResponse &response)
{
    return response.textCallDialect.isEmpty()
               ? ModelProbe::tr("as native tool_calls")
               : ModelProbe::tr("written as text in the %1 dialect").arg(response.textCallDialect);
}

// A 48×48 red square as a PNG data URL: small, and easy to name.
QString testImage()
{
    QImage image(48, 48, QImage::Format_RGB32);
    image.fill(Qt::red);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
}

qint64 estimateTokens(qsizetype characters)
{
    return qint64(double(characters) * estimatedTokensPerChar) + 1;
}

} // namespace

ModelProbe::ModelProbe(ProviderConfig config, QObject *parent)
    : ModelProbe(std::move(config), Options(), parent)
{}

ModelProbe::ModelProbe(ProviderConfig config, Options options, QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_options(options)
{
    // The probe must learn what the model writes, whatever the user chose; and it must not wait
    // long for any one answer.
    m_config.recoverTextToolCalls = true;
    m_config.maxRetries = std::min(m_config.maxRetries, 1);
    m_config.maxRetryDelay = std::min<std::chrono::milliseconds>(m_config.maxRetryDelay, 5s);
    m_config.connectTimeout = std::min(m_config.connectTimeout, m_options.stepTimeout);
    m_config.idleTimeout = std::min(m_config.idleTimeout, m_options.stepTimeout);
    m_client = new ChatClient(m_config, this);
    m_windows = new ContextWindowProbe(m_config, this);
}

ModelProbe::~ModelProbe() = default;

void ModelProbe::cancel()
{
    m_cancelled = true;
    m_client->cancel();
    m_windows->cancel();
}

QString ModelProbe::toolName()
{
    return QStringLiteral("get_time");
}

QJsonArray ModelProbe::tools()
{
    const QJsonObject parameters{
        {QStringLiteral("type"), QStringLiteral("object")},
        {QStringLiteral("properties"),
         QJsonObject{
             {QStringLiteral("city"), QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                                                  {QStringLiteral("description"), QStringLiteral("The city")}}}}},
        {QStringLiteral("required"), QJsonArray{QStringLiteral("city")}},
    };
    return {QJsonObject{{QStringLiteral("type"), QStringLiteral("function")},
                        {QStringLiteral("function"),
                         QJsonObject{{QStringLiteral("name"), toolName()},
                                     {QStringLiteral("description"), QStringLiteral("The current time in a city.")},
                                     {QStringLiteral("parameters"), parameters}}}}};
}

QCoro::Task<ModelProbe::Exchange> ModelProbe::ask(QList<ChatMessage> messages, QJsonArray tools, int maxTokens,
                                                  bool reasoningBack)
{
    QPointer<ModelProbe> self(this);
    Exchange exchange;
    if (m_cancelled) {
        exchange.failure = tr("cancelled");
        co_return exchange;
    }
    ProviderConfig config = m_config;
    config.maxAnswerTokens = maxTokens;
    config.sendReasoningBack = reasoningBack;
    m_client->setConfig(config);

    QElapsedTimer clock;
    clock.start();
    const auto firstToken = [&exchange, &clock] {
        if (exchange.firstTokenMilliseconds < 0)
            exchange.firstTokenMilliseconds = clock.elapsed();
    };
    const QMetaObject::Connection onText = connect(m_client, &ChatClient::textDelta, this, firstToken);
    const QMetaObject::Connection onReasoning = connect(m_client, &ChatClient::reasoningDelta, this, firstToken);
    bool timedOut = false;
    QTimer limit;
    limit.setSingleShot(true);
    connect(&limit, &QTimer::timeout, this, [this, &timedOut] {
        timedOut = true;
        m_client->cancel();
    });
    limit.start(m_options.stepTimeout);

    const qsizetype requestSize =
        QJsonDocument(ChatClient::wireMessages(messages, reasoningBack)).toJson(QJsonDocument::Compact).size() +
        QJsonDocument(tools).toJson(QJsonDocument::Compact).size();
    exchange.response = co_await m_client->complete(messages, tools);
    if (!self)
        co_return exchange;
    limit.stop();
    disconnect(onText);
    disconnect(onReasoning);
    exchange.milliseconds = clock.elapsed();

    const ChatMessage &answer = exchange.response.message;
    const TokenUsage &usage = answer.usage;
    if (usage.promptTokens > 0) {
        exchange.promptTokens = usage.promptTokens;
        exchange.completionTokens = usage.completionTokens;
    } else {
        exchange.estimated = true;
        exchange.promptTokens = estimateTokens(requestSize);
        qsizetype written = answer.content.size() + answer.reasoning.size();
        for (const ToolCall &call : answer.toolCalls)
            written += call.name.size() + call.arguments.size();
        exchange.completionTokens = written > 0 ? estimateTokens(written) : 0;
    }

    if (timedOut)
        exchange.failure = tr("no answer within %1 s")
                               .arg(std::chrono::duration_cast<std::chrono::seconds>(m_options.stepTimeout).count());
    else if (m_cancelled)
        exchange.failure = tr("cancelled");
    else if (!exchange.response.ok())
        exchange.failure = exchange.response.error.message;
    else if (answer.content.trimmed().isEmpty() && answer.toolCalls.isEmpty() && answer.reasoning.isEmpty())
        exchange.failure = tr("the answer was empty (finish reason \"%1\")").arg(exchange.response.finishReason);
    co_return exchange;
}

bool ModelProbe::callsCame(Step &step, const Exchange &exchange)
{
    if (!exchange.failure.isEmpty()) {
        step.outcome = Outcome::Failed;
        step.detail = exchange.failure;
        return false;
    }
    if (exchange.response.message.toolCalls.isEmpty()) {
        step.outcome = Outcome::Failed;
        step.detail = exchange.response.finishReason == QLatin1String("length")
                          ? tr("the answer reached the probe's limit of %1 tokens before any call").arg(callLimit)
                          : tr("the model answered without calling %1: \"%2\"")
                                .arg(toolName(), excerpt(exchange.response.message.content));
        return false;
    }
    return true;
}

void ModelProbe::noteCalls(ModelReport &report, const ChatResponse &response)
{
    report.calls = response.textCallDialect.isEmpty() ? ModelReport::Calls::Native : ModelReport::Calls::Text;
    report.dialect = response.textCallDialect;
}

void ModelProbe::count(ModelReport &report, Step &step, const Exchange &exchange) const
{
    step.milliseconds = exchange.milliseconds;
    step.promptTokens = exchange.promptTokens;
    step.completionTokens = exchange.completionTokens;
    report.tokensSent += exchange.promptTokens;
    report.tokensReceived += exchange.completionTokens;
    report.tokensEstimated = report.tokensEstimated || exchange.estimated;
    if (!exchange.failure.isEmpty() || report.reasoning == ModelReport::Reasoning::Tags)
        return;
    if (!exchange.response.message.reasoning.isEmpty())
        report.reasoning =
            exchange.response.reasoningInContent ? ModelReport::Reasoning::Tags : ModelReport::Reasoning::Field;
    else if (report.reasoning == ModelReport::Reasoning::Unknown)
        report.reasoning = ModelReport::Reasoning::None;
}

QCoro::Task<ModelProbe::LongPrompt> ModelProbe::longPrompt(qint64 window, ContextWindowProbe::Server server)
{
    QPointer<ModelProbe> self(this);
    LongPrompt result;
    if (window <= 0) {
        result.skipped = tr("the server does not say how large the window is");
        co_return result;
    }
    // The answer and the template's own tokens need room beside the prompt.
    constexpr int answerTokens = 8;
    if (window * 9 / 10 > m_options.longPromptBudget) {
        result.skipped = tr("a window of %1 tokens is larger than the probe's budget of %2 tokens")
                             .arg(window)
                             .arg(m_options.longPromptBudget);
        co_return result;
    }
    const QString sentence = QString::fromLatin1(fillerSentence);
    QList<ChatMessage> messages = question("Reply with the word ok.");
    // How many of the server's tokens a sentence is, counted by the server where it can.
    const QString sample = sentence.repeated(40);
    messages[1].content = sample;
    const auto counted = co_await m_windows->countTokens(
        server, QJsonObject{{QStringLiteral("model"), m_config.model},
                            {QStringLiteral("messages"), ChatClient::wireMessages(messages, false)}});
    if (!self)
        co_return result;
    const bool exact = counted && *counted > 0;
    const double perChar = exact ? double(*counted) / double(sample.size()) : estimatedTokensPerChar;
    result.targetTokens = window * (exact ? 85 : 75) / 100 - answerTokens;
    messages[1].content =
        sentence.repeated(std::max<qsizetype>(1, qsizetype(double(result.targetTokens) / perChar) / sentence.size())) +
        QStringLiteral("Reply with the word ok.");
    result.exchange = co_await ask(messages, {}, answerTokens, false);
    co_return result;
}

QCoro::Task<ModelReport> ModelProbe::run()
{
    QPointer<ModelProbe> self(this);
    m_cancelled = false;
    ModelReport report;
    report.provider = m_config.id;
    report.baseUrl = m_config.baseUrl;
    report.model = m_config.model;
    report.probedAt = QDateTime::currentDateTimeUtc();
    const QString cancelled = tr("cancelled");
    const auto skipRest = [&report](const QStringList &names, const QString &why) {
        for (const QString &name : names)
            report.steps.append({name, Outcome::Skipped, why, 0, 0, 0});
    };

    // The server's own word on the window and on images, asked first: the steps need it.
    const ContextWindowProbe::Finding finding = co_await m_windows->discover(m_config.model);
    if (!self)
        co_return report;
    report.window = finding.window;
    report.windowSource = finding.source;
    report.vision = finding.acceptsImages;

    // 1. A plain answer: the server answers at all, and how fast.
    Q_EMIT stepStarted(1, stepCount, tr("A plain answer"));
    const Exchange plain = co_await ask(question(plainQuestion), {}, answerLimit, false);
    if (!self)
        co_return report;
    Step plainStep{QStringLiteral("plain")};
    count(report, plainStep, plain);
    if (!plain.failure.isEmpty()) {
        plainStep.outcome = Outcome::Failed;
        plainStep.detail = plain.failure;
        report.steps << plainStep;
        report.calls = ModelReport::Calls::Unknown;
        skipRest({QStringLiteral("tool_call"), QStringLiteral("parallel_calls"), QStringLiteral("after_tool_result"),
                  QStringLiteral("long_prompt"), QStringLiteral("image")},
                 m_cancelled ? cancelled : tr("the plain answer did not come"));
        co_return report;
    }
    plainStep.outcome = Outcome::Passed;
    plainStep.detail = tr("%1 tokens: \"%2\"").arg(plain.completionTokens).arg(excerpt(plain.response.message.content));
    report.steps << plainStep;
    report.firstTokenMilliseconds = plain.firstTokenMilliseconds;
    const qint64 streamingMs = plain.milliseconds - std::max<qint64>(0, plain.firstTokenMilliseconds);
    if (plain.completionTokens > 1 && streamingMs > 0)
        report.tokensPerSecond = double(plain.completionTokens - 1) * 1000.0 / double(streamingMs);

    // 2. One tool call: native or written as text, and in which dialect.
    Q_EMIT stepStarted(2, stepCount, tr("One tool call"));
    const Exchange single = co_await ask(question(toolQuestion), tools(), callLimit, false);
    if (!self)
        co_return report;
    Step singleStep{QStringLiteral("tool_call")};
    count(report, singleStep, single);
    const QList<ToolCall> &singleCalls = single.response.message.toolCalls;
    if (!callsCame(singleStep, single)) {
        if (single.failure.isEmpty())
            report.calls = ModelReport::Calls::None;
    } else {
        noteCalls(report, single.response);
        const bool declared = singleCalls.first().name == toolName();
        singleStep.outcome = declared ? Outcome::Passed : Outcome::Failed;
        singleStep.detail = declared ? tr("%1 %2").arg(describeCalls(singleCalls), howCallsCame(single.response))
                                     : tr("called %1, which was not declared").arg(singleCalls.first().name);
    }
    report.steps << singleStep;

    // 3. Two calls in one answer.
    Q_EMIT stepStarted(3, stepCount, tr("Two parallel calls"));
    const Exchange parallel = co_await ask(question(parallelQuestion), tools(), callLimit, false);
    if (!self)
        co_return report;
    Step parallelStep{QStringLiteral("parallel_calls")};
    count(report, parallelStep, parallel);
    const QList<ToolCall> &parallelCalls = parallel.response.message.toolCalls;
    if (callsCame(parallelStep, parallel)) {
        report.parallelCalls = parallelCalls.size() >= 2;
        if (report.calls == ModelReport::Calls::None || report.calls == ModelReport::Calls::Unknown)
            noteCalls(report, parallel.response);
        parallelStep.outcome = Outcome::Passed;
        parallelStep.detail = (parallelCalls.size() >= 2 ? tr("%n calls came back:", nullptr, int(parallelCalls.size()))
                                                         : tr("one call came back:")) +
                              QLatin1Char(' ') + describeCalls(parallelCalls) + QLatin1Char(' ') +
                              howCallsCame(parallel.response);
    }
    report.steps << parallelStep;

    // 4. An answer after a tool result, with the call's reasoning sent back where there was some
    // in a field of its own (what llama.cpp and vLLM need for gpt-oss, and DeepSeek refuses).
    Q_EMIT stepStarted(4, stepCount, tr("After a tool result"));
    QList<ChatMessage> history = question(toolQuestion);
    ChatMessage call = message(ChatMessage::Role::Assistant, QString());
    if (!singleCalls.isEmpty() && singleCalls.first().name == toolName()) {
        call.toolCalls = {singleCalls.first()};
        if (!single.response.reasoningInContent)
            call.reasoning = single.response.message.reasoning;
    }
    if (call.toolCalls.isEmpty() || call.toolCalls.first().id.isEmpty())
        call.toolCalls = {ToolCall{QStringLiteral("call_probe_1"), toolName(), QStringLiteral("{\"city\":\"Paris\"}")}};
    ChatMessage result = message(ChatMessage::Role::Tool, QString::fromLatin1(toolResult));
    result.toolCallId = call.toolCalls.first().id;
    result.toolName = toolName();
    history << call << result;
    const bool reasoningBack = !call.reasoning.isEmpty();
    Exchange after = co_await ask(history, tools(), answerLimit, reasoningBack);
    if (!self)
        co_return report;
    Step afterStep{QStringLiteral("after_tool_result")};
    std::optional<bool> reasoningTaken;
    if (reasoningBack && after.response.error.kind == ChatError::Kind::BadRequest) {
        // Refused with the reasoning: once more without it, to tell the two apart.
        count(report, afterStep, after);
        reasoningTaken = false;
        after = co_await ask(history, tools(), answerLimit, false);
        if (!self)
            co_return report;
    } else if (reasoningBack && after.failure.isEmpty()) {
        reasoningTaken = true;
    }
    count(report, afterStep, after);
    if (!after.failure.isEmpty()) {
        afterStep.outcome = Outcome::Failed;
        afterStep.detail = after.failure;
        report.answersAfterToolResult =
            after.response.error.kind == ChatError::Kind::None ? std::optional(false) : std::nullopt;
    } else {
        report.answersAfterToolResult = true;
        afterStep.outcome = Outcome::Passed;
        afterStep.detail = after.response.message.toolCalls.isEmpty()
                               ? tr("answered: \"%1\"").arg(excerpt(after.response.message.content))
                               : tr("called again: %1").arg(describeCalls(after.response.message.toolCalls));
    }
    if (reasoningTaken)
        afterStep.detail += QLatin1Char(' ') + (*reasoningTaken ? tr("(the reasoning went back with the history)")
                                                                : tr("(the server refused the reasoning sent back)"));
    report.steps << afterStep;

    // 5. A long prompt near the window: the server takes what it says it takes.
    Q_EMIT stepStarted(5, stepCount, tr("A long prompt"));
    const LongPrompt longOne = co_await longPrompt(report.window, finding.server);
    if (!self)
        co_return report;
    Step longStep{QStringLiteral("long_prompt")};
    bool windowFromError = false;
    if (!longOne.skipped.isEmpty()) {
        longStep.detail = longOne.skipped;
    } else {
        const Exchange &sent = longOne.exchange;
        count(report, longStep, sent);
        const auto overflow = sent.response.error.overflow;
        if (sent.failure.isEmpty()) {
            longStep.outcome = Outcome::Passed;
            report.windowTestedTokens = sent.promptTokens;
            longStep.detail = tr("a prompt of %1 tokens was answered").arg(sent.promptTokens);
            // A server that cuts the prompt silently (Ollama) reports fewer tokens than were sent.
            if (!sent.estimated && sent.promptTokens < longOne.targetTokens / 2) {
                longStep.outcome = Outcome::Failed;
                longStep.detail = tr("about %1 tokens were sent, the server counted %2: it cuts long prompts")
                                      .arg(longOne.targetTokens)
                                      .arg(sent.promptTokens);
            }
        } else {
            longStep.outcome = Outcome::Failed;
            longStep.detail = sent.failure;
            if (sent.response.error.kind == ChatError::Kind::ContextExceeded && overflow.window > 0 &&
                overflow.window != report.window) {
                report.window = overflow.window;
                report.windowSource = tr("the server's context error");
                windowFromError = true;
            }
        }
    }
    report.steps << longStep;

    // 6. An image, where the server says the model takes them.
    Q_EMIT stepStarted(6, stepCount, tr("An image"));
    Step imageStep{QStringLiteral("image")};
    if (!report.vision) {
        imageStep.detail = tr("the server does not say whether the model takes images");
    } else if (!*report.vision) {
        imageStep.detail = tr("the server says the model takes no images");
    } else {
        QList<ChatMessage> seeing = question("What colour is this square? Answer with one word.");
        seeing[1].imageUrls = {testImage()};
        const Exchange seen = co_await ask(seeing, {}, answerLimit, false);
        if (!self)
            co_return report;
        count(report, imageStep, seen);
        imageStep.outcome = seen.failure.isEmpty() ? Outcome::Passed : Outcome::Failed;
        imageStep.detail = seen.failure.isEmpty()
                               ? tr("a red square, answered \"%1\"").arg(excerpt(seen.response.message.content))
                               : seen.failure;
        if (!seen.failure.isEmpty() && seen.response.error.kind != ChatError::Kind::Cancelled)
            report.vision = false;
    }
    report.steps << imageStep;

    // The settings the findings call for.
    if (report.calls == ModelReport::Calls::Text) {
        report.switches.append({QStringLiteral("text_tool_calls"), QStringLiteral("true"),
                                tr("the model writes its calls as text (%1)").arg(report.dialect)});
    }
    if (reasoningTaken) {
        report.switches.append({QStringLiteral("reasoning_back"),
                                *reasoningTaken ? QStringLiteral("true") : QStringLiteral("false"),
                                *reasoningTaken ? tr("the model reasons before its calls and the server takes the "
                                                     "reasoning back")
                                                : tr("the server refuses reasoning sent back")});
    }
    if (windowFromError) {
        report.switches.append({QStringLiteral("context_windows"), QString::number(report.window),
                                tr("the server's context error names a window of %1 tokens").arg(report.window)});
    }
    qCInfo(lcAgent) << "probed" << m_config.model << "at" << m_config.baseUrl << ":" << report.verdict();
    co_return report;
}

} // namespace Sandpiper
