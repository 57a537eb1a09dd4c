#pragma once

#include "llm/chatclient.h"
#include "llm/contextuse.h"
#include "llm/contextwindowprobe.h"

#include <QHash>
#include <QObject>

#include <QCoroTask>

namespace Sandpiper {

// Keeps every request within the model's context window. It learns the window from the user's
// setting, the server (ContextWindowProbe) or the server's own context error, estimates each
// request's tokens (counted exactly by the server near the limit, else estimated with a factor
// calibrated from the server's usage.prompt_tokens), and shortens what is sent when it would
// not fit with room for the answer (ContextShortener). When the server still refuses with a
// context error it shortens harder and tries once more by itself; when a server silently cut
// the prompt instead (Ollama does), it warns. The conversation itself is never changed.
class ContextBudget : public QObject
{
    Q_OBJECT

public:
    // The window assumed when neither the user, the server nor the preset says.
    static constexpr qint64 defaultWindow = 8192;

    explicit ContextBudget(ChatClient *client, QObject *parent = nullptr);
    ~ContextBudget() override;

    // Sends MESSAGES and TOOLS through the client, fitted to the window.
    QCoro::Task<ChatResponse> complete(QList<ChatMessage> messages, QJsonArray tools);

    // Whether MODEL takes images: not when the server refused them already, else as the user set
    // it for the model, else as the server says (asked once); nullopt when nobody says.
    QCoro::Task<std::optional<bool>> acceptsImages(QString model);
    // The same from what is known already, without asking the server.
    std::optional<bool> knownAcceptsImages(const QString &model) const;
    // The server refused a request with images for MODEL although it seemed to take them.
    void learnImagesRefused(const QString &model);

    // Stops what waits for the server: the window being asked for (also beside a first request,
    // after its turn ended) and the request that waits for it.
    void cancel();

    // Tokens of WINDOW kept free for the answer.
    static qint64 answerReserve(qint64 window);

Q_SIGNALS:
    // Before each request.
    void contextUsed(const Sandpiper::ContextUse &use);
    // Something the user should do about the window, such as Ollama's silent truncation.
    void warning(const QString &text);
    // Internal: the server said (or did not say) what the window is; wakes a second caller.
    void discovered();

private:
    struct Model {
        bool discovered = false;
        bool discovering = false; // asked for, no answer yet
        bool askAgain = false;    // the server's first figure was not final
        ContextWindowProbe::Finding finding;
        qint64 learntWindow = 0; // from the server's context error or its silent truncation
        double tokensPerUnit = 1.25;
        bool calibrated = false;
        bool truncationWarned = false;
        bool imagesRefused = false;
    };
    struct Plan {
        QList<ChatMessage> messages;
        qint64 units = 0;
        qint64 budget = 0; // tokens the prompt may take
        ContextUse use;
    };

    QCoro::Task<> discover(QString model);
    Plan plan(const QList<ChatMessage> &messages, const QJsonArray &tools, const Model &model, double margin) const;
    QCoro::Task<Plan> count(Plan plan, QList<ChatMessage> messages, QJsonArray tools, QString modelName);
    void learnFromUsage(Model &model, const Plan &plan, const TokenUsage &usage);
    void learnFromOverflow(Model &model, const Plan &plan, const ContextOverflow &overflow);
    ChatResponse cancelled() const;

    ChatClient *m_client;
    ContextWindowProbe *m_probe;
    QHash<QString, Model> m_models;
    bool m_cancelled = false;
};

} // namespace Sandpiper
