#pragma once

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace Sandpiper {

// What a model really does on its server, as ModelProbe found it with a short, fixed set of
// requests: how its tool calls come back, whether in parallel, where its reasoning arrives, its
// real context window, whether it sees images, how fast it answers, and what the probe cost. Kept
// per server and model (ModelReports, in the settings) and shown as a card; a value type.
struct ModelReport {
    Q_DECLARE_TR_FUNCTIONS(ModelReport)

public:
    enum class Calls {
        Unknown, // the request failed
        Native,  // structured tool_calls
        Text,    // written into the answer, recovered in a text dialect
        None,    // the model answered without calling the tool
    };
    enum class Reasoning {
        Unknown, // no answer came
        None,    // no reasoning in the answers
        Field,   // a field of its own (reasoning_content, reasoning)
        Tags,    // <think> tags (or a dialect's channel) inside the content
    };
    // One request of the probe and what came of it.
    struct Step {
        enum class Outcome { Passed, Failed, Skipped };
        QString name; // "plain", "tool_call", "parallel_calls", "after_tool_result", "long_prompt", "image"
        Outcome outcome = Outcome::Skipped;
        QString detail; // one sentence for the user
        qint64 milliseconds = 0;
        qint64 promptTokens = 0;
        qint64 completionTokens = 0;

        friend bool operator==(const Step &, const Step &) = default;
    };
    // A per-provider setting that the report calls for (a key under providers/<id>/).
    struct Switch {
        enum class State { Proposed, Set, AlreadySo };
        QString key;   // "text_tool_calls", "reasoning_back", "context_windows"
        QString value; // as the setting takes it: "true", "false", a number of tokens
        QString reason;
        State state = State::Proposed;

        friend bool operator==(const Switch &, const Switch &) = default;
    };

    QString provider;
    QString baseUrl;
    QString model;
    QDateTime probedAt;

    Calls calls = Calls::Unknown;
    QString dialect; // with Calls::Text
    std::optional<bool> parallelCalls;
    std::optional<bool> answersAfterToolResult;
    Reasoning reasoning = Reasoning::Unknown;
    qint64 window = 0; // tokens; 0 when unknown
    QString windowSource;
    qint64 windowTestedTokens = 0; // the long prompt the server took, in its tokens; 0 when not sent
    std::optional<bool> vision;
    double tokensPerSecond = 0;
    qint64 firstTokenMilliseconds = -1; // -1 when no text came
    qint64 tokensSent = 0;              // every request's prompt, in the server's tokens where it said
    qint64 tokensReceived = 0;
    bool tokensEstimated = false; // some request's tokens were estimated, not reported
    QList<Step> steps;
    QList<Switch> switches;

    // Whether the plain answer came: without it nothing else could be learnt.
    bool answered() const;
    // A few words for beside the model's name: "native calls · parallel · 4096 tokens · 310 tok/s".
    QString verdict() const;
    // The whole card, for a terminal or a dialog: a line per finding, per step and per switch.
    QString card() const;
    // The failures, one sentence each.
    QStringList problems() const;
    // The switches marked Set, as "KEY = VALUE".
    QStringList switchesSet() const;
    const Step *step(const QString &name) const;

    QJsonObject toJson() const;
    // Nothing when OBJECT is not a report.
    static std::optional<ModelReport> fromJson(const QJsonObject &object);

    static QString callsName(Calls calls);
    static QString reasoningName(Reasoning reasoning);

    friend bool operator==(const ModelReport &, const ModelReport &) = default;
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::ModelReport)
