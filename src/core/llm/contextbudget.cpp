#include "llm/contextbudget.h"

#include "llm/contextshortener.h"
#include "logging.h"

#include <QCoroSignal>

#include <algorithm>
#include <cmath>

namespace Sandpiper {

namespace {

constexpr qint64 requestFraming = 8; // the request's own markup, the answer's start
// Near the limit the server counts the tokens, where it can; further below, the estimate will do.
constexpr double countAbove = 0.6;
// After a context error the request is fitted with this much of the budget.
constexpr double harderMargin = 0.85;
// A prompt this short is never cut by a server (Ollama's smallest num_ctx is 2048).
constexpr qint64 truncationFloor = 1024;
constexpr double minTokensPerUnit = 0.2;
constexpr double maxTokensPerUnit = 6.0;
// A request this small fits the smallest window in use (2048 tokens, with room for the answer),
// so the server is asked for its window only when a request grows beyond it: a short
// conversation costs no extra round trip.
constexpr qint64 alwaysFits = 1536;
// A caller that finds the window being asked for waits this long for the answer: every probe of
// ContextWindowProbe::discover() timing out.
constexpr std::chrono::seconds discoveryWait{20};

qint64 roundUp(qint64 value, qint64 step)
{
    return (value + step - 1) / step * step;
}

// The first request of a conversation: its system prompt and the user's first message. Nothing of
// it can be left out, so knowing the window first would change nothing that is sent.
bool isFirstRequest(const QList<ChatMessage> &messages)
{
    return !messages.isEmpty() && messages.constLast().role == ChatMessage::Role::User &&
           std::all_of(messages.cbegin(), messages.cend() - 1,
                       [](const ChatMessage &message) { return message.role == ChatMessage::Role::System; });
}

} // namespace

ContextBudget::ContextBudget(ChatClient *client, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_probe(new ContextWindowProbe(client->config(), this))
{
    // A Stop while the window is being asked for must not let the request go out afterwards.
    connect(client, &ChatClient::cancelRequested, this, &ContextBudget::cancel);
}

void ContextBudget::cancel()
{
    m_cancelled = true;
    m_probe->cancel();
}

ContextBudget::~ContextBudget() = default;

qint64 ContextBudget::answerReserve(qint64 window)
{
    return std::clamp<qint64>(window / 4, std::min<qint64>(256, window / 2), 4096);
}

ChatResponse ContextBudget::cancelled() const
{
    ChatResponse response;
    response.message.role = ChatMessage::Role::Assistant;
    response.error = {ChatError::Kind::Cancelled, ChatClient::tr("Cancelled."), 0};
    return response;
}

QCoro::Task<> ContextBudget::discover(QString model)
{
    QPointer<ContextBudget> self(this);
    if (m_models[model].discovering) {
        // Asked already (beside a first request): that answer serves this caller too.
        co_await qCoro(this, &ContextBudget::discovered, discoveryWait);
        co_return;
    }
    m_models[model].discovering = true;
    const ContextWindowProbe::Finding finding = co_await m_probe->discover(model);
    if (!self)
        co_return;
    Model &state = m_models[model];
    state.discovering = false;
    const bool first = !state.discovered;
    state.discovered = true;
    if (finding.window > 0 || first)
        state.finding = finding;
    state.askAgain = first && !finding.settled;
    qCInfo(lcAgent) << "context window of" << model << ":" << state.finding.window << "from" << state.finding.source;
    Q_EMIT discovered();
}

ContextBudget::Plan ContextBudget::plan(const QList<ChatMessage> &messages, const QJsonArray &tools, const Model &model,
                                        double margin) const
{
    const ProviderConfig &config = m_client->config();
    Plan plan;
    qint64 window = defaultWindow;
    QString source;
    const qint64 setByUser =
        config.contextWindows.value(config.model, config.contextWindows.value(QStringLiteral("*")));
    if (model.learntWindow > 0) {
        window = model.learntWindow;
        source = QStringLiteral("server");
    } else if (setByUser > 0) {
        window = setByUser;
        source = QStringLiteral("settings");
    } else if (model.finding.window > 0) {
        window = model.finding.window;
        source = model.finding.source;
    } else if (config.defaultContextWindow > 0) {
        window = config.defaultContextWindow;
    }
    plan.budget = qint64(double(window - answerReserve(window)) * margin);
    const auto budgetUnits = qint64(double(plan.budget) / model.tokensPerUnit);
    const qint64 fixed = requestFraming + ContextShortener::units(tools);
    const ContextShortener::Outcome outcome =
        ContextShortener::shorten(messages, budgetUnits, fixed, config.sendReasoningBack);
    plan.messages = outcome.messages;
    plan.units = outcome.units;
    plan.use.tokens = qint64(std::ceil(double(outcome.units) * model.tokensPerUnit));
    plan.use.window = window;
    plan.use.windowSource = source;
    plan.use.leftOut = outcome.summary(window);
    return plan;
}

QCoro::Task<ContextBudget::Plan> ContextBudget::count(Plan plan, QList<ChatMessage> messages, QJsonArray tools,
                                                      QString modelName)
{
    QPointer<ContextBudget> self(this);
    const ContextWindowProbe::Server server = m_models.value(modelName).finding.server;
    if (server != ContextWindowProbe::Server::LlamaCpp && server != ContextWindowProbe::Server::Vllm)
        co_return plan;
    // Twice at most: once as estimated, once more after shortening with what the count taught.
    for (int round = 0; round < 2 && double(plan.use.tokens) > countAbove * double(plan.budget); ++round) {
        QJsonObject body{{QStringLiteral("model"), modelName},
                         {QStringLiteral("messages"),
                          ChatClient::wireMessages(plan.messages, m_client->config().sendReasoningBack)}};
        if (!tools.isEmpty())
            body.insert(QStringLiteral("tools"), tools);
        const std::optional<qint64> counted = co_await m_probe->countTokens(server, body);
        if (!self || !counted || m_cancelled)
            co_return plan;
        Model &state = m_models[modelName];
        state.tokensPerUnit = double(*counted) / double(std::max<qint64>(1, plan.units));
        state.calibrated = true;
        plan.use.tokens = *counted;
        plan.use.exact = true;
        if (*counted <= plan.budget)
            break;
        plan = this->plan(messages, tools, state, 1.0);
    }
    co_return plan;
}

void ContextBudget::learnFromOverflow(Model &model, const Plan &plan, const ContextOverflow &overflow)
{
    if (overflow.window > 0)
        model.learntWindow = overflow.window;
    if (overflow.promptTokens > 0) {
        model.tokensPerUnit = double(overflow.promptTokens) / double(std::max<qint64>(1, plan.units));
        model.calibrated = true;
    } else if (overflow.window <= 0) {
        // The server said nothing to learn from: assume the estimate was far too low.
        model.tokensPerUnit *= 1.5;
    }
}

void ContextBudget::learnFromUsage(Model &model, const Plan &plan, const TokenUsage &usage)
{
    const qint64 prompt = usage.promptTokens;
    if (prompt <= 0 || plan.units <= 0)
        return;
    const qint64 estimate = qint64(double(plan.units) * model.tokensPerUnit);
    // A server that cuts the prompt to its window reports far fewer tokens than were sent.
    const double implausible = model.calibrated ? 1.5 : 3.0;
    if (prompt >= truncationFloor && double(estimate) >= implausible * double(prompt) && !plan.use.exact) {
        const qint64 window = roundUp(prompt, 1024);
        model.learntWindow = window;
        qCWarning(lcAgent) << "the server cut the prompt to" << prompt << "tokens; about" << estimate << "were sent";
        if (std::exchange(model.truncationWarned, true))
            return;
        const QLocale locale;
        QString fix;
        switch (model.finding.server) {
        case ContextWindowProbe::Server::Ollama:
            fix = tr("Ollama does this when its context window is smaller than the request: raise it with "
                     "OLLAMA_CONTEXT_LENGTH (for example 32768) where the server starts, or with num_ctx in the "
                     "model's Modelfile.");
            break;
        case ContextWindowProbe::Server::LmStudio:
            fix = tr("LM Studio does this when the model is loaded with a smaller context length than the request: "
                     "load it with a larger one.");
            break;
        default:
            fix = tr("Raise the server's context size for this model.");
            break;
        }
        Q_EMIT warning(tr("The server cut this conversation to %1 tokens without saying so: the model saw only part "
                          "of a request of about %2 tokens. %3 Or set this model's context window in Settings. Until "
                          "then Sandpiper keeps requests within %4 tokens itself and says what it leaves out.")
                           .arg(locale.toString(prompt), locale.toString(estimate), fix, locale.toString(window)));
        return;
    }
    // Between a byte-level tokenizer (4 tokens a unit) and a frugal one on CJK text; a figure
    // outside says more about the server than about its tokenizer.
    const double ratio = double(prompt) / double(plan.units);
    if (ratio < minTokensPerUnit || ratio > maxTokensPerUnit)
        return;
    model.tokensPerUnit = model.calibrated ? (model.tokensPerUnit + ratio) / 2.0 : ratio;
    model.calibrated = true;
}

std::optional<bool> ContextBudget::knownAcceptsImages(const QString &model) const
{
    const Model known = m_models.value(model);
    if (known.imagesRefused)
        return false;
    const QHash<QString, bool> &set = m_client->config().imageModels;
    if (const auto chosen = set.constFind(model); chosen != set.cend())
        return *chosen;
    if (const auto any = set.constFind(QStringLiteral("*")); any != set.cend())
        return *any;
    return known.finding.acceptsImages;
}

QCoro::Task<std::optional<bool>> ContextBudget::acceptsImages(QString model)
{
    QPointer<ContextBudget> self(this);
    const std::optional<bool> known = knownAcceptsImages(model);
    if (known || m_models.value(model).discovered)
        co_return known;
    m_cancelled = false;
    co_await discover(model);
    if (!self || m_cancelled)
        co_return std::nullopt;
    co_return knownAcceptsImages(model);
}

void ContextBudget::learnImagesRefused(const QString &model)
{
    m_models[model].imagesRefused = true;
}

QCoro::Task<ChatResponse> ContextBudget::complete(QList<ChatMessage> messages, QJsonArray tools)
{
    QPointer<ContextBudget> self(this);
    m_cancelled = false;
    const QString model = m_client->config().model;
    Plan first = plan(messages, tools, m_models.value(model), 1.0);
    const Model &known = m_models.value(model);
    const bool unknown = (!known.discovered && first.use.tokens > alwaysFits) || known.askAgain;
    if (unknown && isFirstRequest(messages)) {
        // The first answer does not wait for the server's window (its probes can take seconds on a
        // server that does not know them): the window is asked for beside it, for the next request
        // and for the meter, which then shows this request against it.
        QCoro::connect(discover(model), this, [this, messages, tools, model] {
            Q_EMIT contextUsed(plan(messages, tools, m_models.value(model), 1.0).use);
        });
    } else if (unknown) {
        co_await discover(model);
        if (!self)
            co_return {};
        if (m_cancelled)
            co_return cancelled();
        first = plan(messages, tools, m_models.value(model), 1.0);
    }

    Plan sent = co_await count(first, messages, tools, model);
    if (!self)
        co_return {};
    if (m_cancelled)
        co_return cancelled();
    Q_EMIT contextUsed(sent.use);
    ChatResponse response = co_await m_client->complete(sent.messages, tools);
    if (!self)
        co_return response;

    if (response.error.kind == ChatError::Kind::ContextExceeded) {
        learnFromOverflow(m_models[model], sent, response.error.overflow);
        const Plan harder = plan(messages, tools, m_models.value(model), harderMargin);
        // Once, only when there is something more to leave out, and only when nothing of the
        // refused answer was shown (a retry would show its text twice).
        const bool nothingShown = response.message.content.isEmpty() && response.message.reasoning.isEmpty();
        if (harder.units < sent.units && nothingShown) {
            qCInfo(lcAgent) << "context exceeded; trying again with" << harder.units << "units instead of"
                            << sent.units;
            sent = harder;
            Q_EMIT contextUsed(sent.use);
            response = co_await m_client->complete(sent.messages, tools);
            if (!self)
                co_return response;
        }
    }
    if (response.ok())
        learnFromUsage(m_models[model], sent, response.message.usage);
    if (response.error.kind == ChatError::Kind::ContextExceeded) {
        response.error.message +=
            QLatin1Char(' ') + tr("Sandpiper left out of the request what it could; what remains (the system "
                                  "prompt, the tool declarations and the last message) is still too long. Give "
                                  "the model a larger context window on the server, or send a shorter message.");
    }
    co_return response;
}

} // namespace Sandpiper
