#pragma once

#include "llm/chatclient.h"
#include "llm/contextwindowprobe.h"
#include "llm/modelreport.h"
#include "llm/providerconfig.h"

#include <QObject>

#include <QCoroTask>

#include <chrono>

namespace Sandpiper {

// Finds out what a model really does on its server with a short, fixed set of requests through
// the same ChatClient as every answer (streamed, text calls recovered): a plain answer, one tool
// call, two parallel calls, an answer after a tool result, a long prompt near the window (when
// the window is within the budget) and an image (when the server says the model takes images).
// Every failure (a refusal, an HTTP error, garbage, a step that takes too long) becomes a line of
// the report; nothing is retried for long and no step outlasts Options::stepTimeout.
class ModelProbe : public QObject
{
    Q_OBJECT

public:
    struct Options {
        // The long prompt is sent only when it comes to at most this many tokens.
        qint64 longPromptBudget = 16384;
        std::chrono::milliseconds stepTimeout = std::chrono::seconds(90);
    };
    static constexpr int stepCount = 6;

    explicit ModelProbe(ProviderConfig config, QObject *parent = nullptr);
    ModelProbe(ProviderConfig config, Options options, QObject *parent = nullptr);
    ~ModelProbe() override;

    QCoro::Task<ModelReport> run();
    // Stops the request in flight; run() then returns what it found, the rest skipped.
    void cancel();

    // The tiny tool the model is asked to call.
    static QJsonArray tools();
    static QString toolName();

Q_SIGNALS:
    // Before each step, counted from 1.
    void stepStarted(int number, int count, const QString &title);

private:
    struct Exchange {
        ChatResponse response;
        qint64 milliseconds = 0;
        qint64 firstTokenMilliseconds = -1;
        QString failure; // empty when the request succeeded
        qint64 promptTokens = 0;
        qint64 completionTokens = 0;
        bool estimated = false;
    };
    QCoro::Task<Exchange> ask(QList<ChatMessage> messages, QJsonArray tools, int maxTokens, bool reasoningBack);
    // The long prompt for WINDOW: the exchange, or why it was not sent.
    struct LongPrompt {
        Exchange exchange;
        qint64 targetTokens = 0;
        QString skipped;
    };
    QCoro::Task<LongPrompt> longPrompt(qint64 window, ContextWindowProbe::Server server);
    void count(ModelReport &report, ModelReport::Step &step, const Exchange &exchange) const;
    // Whether EXCHANGE, which asked for a call, brought calls; else STEP failed, saying why.
    static bool callsCame(ModelReport::Step &step, const Exchange &exchange);
    // Native calls, or the text dialect RESPONSE's calls were written in.
    static void noteCalls(ModelReport &report, const ChatResponse &response);

    ProviderConfig m_config;
    Options m_options;
    ChatClient *m_client;
    ContextWindowProbe *m_windows;
    bool m_cancelled = false;
};

} // namespace Sandpiper
