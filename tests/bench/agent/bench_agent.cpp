// scripts/bench agent: what the agent adds to the time from a user message to the first visible
// text, against Debian's real llama.cpp server, beside a plain HTTP client sending the same
// request to the same server in the same run; and what shortening a 2 000-message history to
// fit a context window costs.
#include "benchstats.h"
#include "llamaserver.h"

#include <agent/agentthread.h>
#include <llm/chatclient.h>
#include <llm/contextshortener.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>

#include <cstdio>

using namespace Sandpiper;
using Sandpiper::Test::elapsedMs;
using Sandpiper::Test::percentile;

namespace {

const QString systemPrompt = QStringLiteral("You are a helpful assistant.");
const QString question = QStringLiteral("Say something.");

// Waits with the event loop running until DONE says so, or 60 s have passed.
template<typename Done> bool spin(Done done)
{
    QElapsedTimer timer;
    timer.start();
    while (!done() && timer.elapsed() < 60000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    return done();
}

// The request the agent sends for QUESTION in a new conversation without tools.
QByteArray plainRequest()
{
    ChatMessage system;
    system.role = ChatMessage::Role::System;
    system.content = systemPrompt;
    ChatMessage user;
    user.content = question;
    const QJsonObject body{{QStringLiteral("model"), QStringLiteral("tiny")},
                           {QStringLiteral("messages"), ChatClient::wireMessages({system, user}, true)},
                           {QStringLiteral("stream"), true},
                           {QStringLiteral("stream_options"), QJsonObject{{QStringLiteral("include_usage"), true}}}};
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

// A plain client: from the POST to the first event that carries text.
double plainFirstText(QNetworkAccessManager &network, const QUrl &baseUrl)
{
    QNetworkRequest request(QUrl(baseUrl.toString() + QStringLiteral("/chat/completions")));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    const QByteArray body = plainRequest();
    double firstText = -1;
    QByteArray buffer;
    QElapsedTimer timer;
    timer.start();
    QNetworkReply *reply = network.post(request, body);
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [&] {
        buffer += reply->readAll();
        for (qsizetype end; firstText < 0 && (end = buffer.indexOf("\n\n")) >= 0; buffer.remove(0, end + 2)) {
            const QByteArray event = buffer.first(end);
            if (!event.startsWith("data: "))
                continue;
            const QJsonObject chunk = QJsonDocument::fromJson(event.sliced(6)).object();
            const QString text =
                chunk[QLatin1String("choices")][0][QLatin1String("delta")][QLatin1String("content")].toString();
            if (!text.isEmpty())
                firstText = elapsedMs(timer);
        }
    });
    if (!spin([reply] { return reply->isFinished(); }) || firstText < 0)
        qFatal("the plain client got no text: %s", qPrintable(reply->errorString()));
    reply->deleteLater();
    return firstText;
}

// The agent of an open conversation, on its worker thread as in the app.
AgentConfig agentConfig(const QUrl &baseUrl)
{
    AgentConfig config;
    config.provider.id = QStringLiteral("llamacpp");
    config.provider.baseUrl = baseUrl.toString();
    config.provider.model = QStringLiteral("tiny");
    config.provider.sendReasoningBack = true;
    config.systemPrompt = systemPrompt;
    config.pythonEnabled = false;
    config.chartsEnabled = false;
    config.webEnabled = false;
    return config;
}

// From send() to the first text event on this thread. The conversation starts afresh each
// time, so that the server sees the same request as the plain client's.
double agentFirstText(AgentThread &agent)
{
    agent.post(&AgentLoop::replaceHistory, QList<ChatMessage>());
    double firstText = -1;
    bool finished = false;
    QElapsedTimer timer;
    const QMetaObject::Connection connection =
        QObject::connect(&agent, &AgentThread::event, &agent, [&](const AgentEvent &event) {
            if (event.kind == AgentEvent::Kind::TextDelta && firstText < 0 && !event.text.isEmpty())
                firstText = elapsedMs(timer);
            if (event.kind == AgentEvent::Kind::TurnFinished)
                finished = true;
        });
    timer.start();
    agent.post(&AgentLoop::send, question);
    const bool done = spin([&finished] { return finished; });
    QObject::disconnect(connection);
    if (!done || firstText < 0)
        qFatal("the agent showed no text");
    return firstText;
}

// 500 turns of a data session: a question, a call, its output, the answer.
QList<ChatMessage> longHistory()
{
    QList<ChatMessage> history;
    ChatMessage system;
    system.role = ChatMessage::Role::System;
    system.content = systemPrompt;
    history << system;
    for (int turn = 0; turn < 500; ++turn) {
        ChatMessage user;
        user.content = QStringLiteral("Plot the revenue of region %1 by month and tell me the trend.").arg(turn);
        ChatMessage call;
        call.role = ChatMessage::Role::Assistant;
        call.toolCalls = {{QStringLiteral("call_%1").arg(turn), QStringLiteral("execute_python_code"),
                           QStringLiteral("{\"code\": \"import pandas as pd\\ndf = pd.read_csv('sales.csv')\\n"
                                          "df.groupby('month').revenue.sum().plot()\"}")}};
        ChatMessage result;
        result.role = ChatMessage::Role::Tool;
        result.toolCallId = call.toolCalls.first().id;
        result.content = QStringLiteral("month  revenue\n") + QString(80 + turn % 40, QLatin1Char('-')) +
                         QStringLiteral("\n2024-01  1234.5\n").repeated(30 + turn % 100);
        ChatMessage answer;
        answer.role = ChatMessage::Role::Assistant;
        answer.content = QStringLiteral("Revenue rose from January to June, then fell back. ").repeated(4);
        history << user << call << result << answer;
    }
    history.removeLast(); // the last question is still being answered: 2 000 messages
    return history;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QString unavailable = Test::LlamaServer::unavailableReason();
    if (!unavailable.isEmpty())
        qFatal("%s", qPrintable(unavailable));
    Test::LlamaServer server;
    if (!server.start())
        qFatal("%s", qPrintable(server.error()));

    // Both keep their connection, as the app does; both are warmed (and the server's prompt
    // cache with them) before measuring, then they take turns.
    QNetworkAccessManager network;
    AgentThread agentThread(agentConfig(server.baseUrl()));
    for (int i = 0; i < 3; ++i) {
        plainFirstText(network, server.baseUrl());
        agentFirstText(agentThread);
    }
    QList<double> plain;
    QList<double> agent;
    for (int i = 0; i < 60; ++i) {
        plain << plainFirstText(network, server.baseUrl());
        agent << agentFirstText(agentThread);
    }

    const QList<ChatMessage> history = longHistory();
    const qint64 fixed = 8 + ContextShortener::units(QJsonArray());
    const qint64 all = fixed + ContextShortener::units(history, true);
    QList<double> fits;
    QList<double> shortened;
    ContextShortener::Outcome outcome;
    for (int i = 0; i < 50; ++i) {
        QElapsedTimer timer;
        timer.start();
        outcome = ContextShortener::shorten(history, all, fixed, true);
        fits << elapsedMs(timer);
        timer.start();
        // An 8k window with room for the answer, as for a small local model.
        outcome = ContextShortener::shorten(history, 6144, fixed, true);
        shortened << elapsedMs(timer);
    }

    std::printf("%-34s %6s %10s %10s %10s\n", "measure (ms)", "runs", "median", "p95", "min");
    Test::printRow("first text, plain HTTP client", plain, 34);
    Test::printRow("first text, through the agent", agent, 34);
    Test::printRow("2000 messages, fit (estimate)", fits, 34);
    Test::printRow("2000 messages, shortened to 6k", shortened, 34);
    std::printf("history: %lld messages, %lld units; sent after shortening: %lld messages (%d turns left out)\n",
                qlonglong(history.size()), qlonglong(all), qlonglong(outcome.messages.size()), outcome.droppedTurns);

    const double added = percentile(agent, 0.5) - percentile(plain, 0.5);
    const QJsonObject figures{{QStringLiteral("first_text_plain_ms"), percentile(plain, 0.5)},
                              {QStringLiteral("first_text_agent_ms"), percentile(agent, 0.5)},
                              {QStringLiteral("agent_added_ms"), added},
                              {QStringLiteral("shorten_2000_ms"), percentile(shortened, 0.5)},
                              {QStringLiteral("shorten_2000_p95_ms"), percentile(shortened, 0.95)},
                              {QStringLiteral("estimate_2000_ms"), percentile(fits, 0.5)},
                              {QStringLiteral("added_within_2ms"), added <= 2.0},
                              {QStringLiteral("shorten_within_5ms"), percentile(shortened, 0.5) <= 5.0}};
    std::printf("%s\n", QJsonDocument(figures).toJson(QJsonDocument::Compact).constData());
    return 0;
}
