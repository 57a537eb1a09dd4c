// scripts/bench storage: how fast the store loads a long conversation for display and searches
// a large history, on real SQLite files.
#include "benchstats.h"

#include <storage/conversationstore.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace Sandpiper;
using Sandpiper::Test::elapsedMs;
using Sandpiper::Test::percentile;

namespace {

template<typename Body> QList<double> sample(int runs, Body body)
{
    QList<double> times;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer timer;
        timer.start();
        if (!body(i))
            qFatal("benchmark step failed");
        times << elapsedMs(timer);
    }
    return times;
}

void row(const char *name, const QList<double> &samples)
{
    std::printf("%-28s %6lld %10.2f %10.2f %10.2f\n", name, qlonglong(samples.size()), percentile(samples, 0.5),
                percentile(samples, 0.95), *std::min_element(samples.begin(), samples.end()));
}

// Text with the word frequencies of real writing (Zipf's law): a few very common words, the
// words people search for in the middle, a long tail of rare ones.
class TextGenerator
{
public:
    TextGenerator()
    {
        for (const char *word :
             {"the",        "of",       "and",       "to",         "a",           "in",        "is",         "that",
              "for",        "it",       "with",      "as",         "on",          "this",      "be",         "by",
              "you",        "data",     "can",       "we",         "from",        "value",     "are",        "or",
              "column",     "file",     "function",  "python",     "result",      "use",       "plot",       "code",
              "number",     "table",    "list",      "error",      "rows",        "month",     "chart",      "pandas",
              "sales",      "revenue",  "average",   "model",      "figure",      "dataframe", "csv",        "output",
              "string",     "image",    "total",     "filter",     "group",       "mean",      "count",      "index",
              "year",       "customer", "price",     "report",     "array",       "matrix",    "regression", "label",
              "legend",     "axis",     "histogram", "scatter",    "timeout",     "memory",    "network",    "server",
              "request",    "response", "query",     "database",   "parameter",   "variable",  "loop",       "import",
              "library",    "package",  "version",   "install",    "question",    "answer",    "summary",    "analysis",
              "forecast",   "trend",    "season",    "weather",    "temperature", "region",    "country",    "city",
              "product",    "category", "inventory", "order",      "shipping",    "invoice",   "payment",    "budget",
              "quarter",    "growth",   "percent",   "median",     "variance",    "deviation", "outlier",    "cluster",
              "matplotlib", "numpy",    "seaborn",   "statistics", "probability", "sample",    "random",     "seed",
              "penguin",    "species",  "flipper",   "island",     "bill",        "weight",    "height",     "length"})
            m_words << QString::fromLatin1(word);
        // The tail: made-up words, as names, identifiers and typos are.
        static const char *const syllables[] = {"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo",  "be", "da",
                                                "fe", "gi", "ho", "ju", "pa", "ze", "xo", "qui", "ra", "te"};
        QRandomGenerator generator(7);
        while (m_words.size() < 20000) {
            QString word;
            for (int i = 0, n = 2 + int(generator.bounded(3)); i < n; ++i)
                word += QLatin1String(syllables[generator.bounded(20)]);
            m_words << word;
        }
        double sum = 0;
        for (qsizetype rank = 1; rank <= m_words.size(); ++rank) {
            sum += 1.0 / double(rank);
            m_cumulative << sum;
        }
        for (double &value : m_cumulative)
            value /= sum;
    }

    QString text(int words)
    {
        QString text;
        text.reserve(words * 8);
        for (int i = 0; i < words; ++i) {
            if (i > 0)
                text += (i % 15 == 0) ? QStringLiteral(".\n") : QStringLiteral(" ");
            const double u = m_generator.generateDouble();
            const auto found = std::lower_bound(m_cumulative.cbegin(), m_cumulative.cend(), u);
            text += m_words.at(std::min<qsizetype>(found - m_cumulative.cbegin(), m_words.size() - 1));
        }
        return text;
    }

    int bounded(int low, int high) { return int(m_generator.bounded(low, high)); }

private:
    QStringList m_words;
    QList<double> m_cumulative;
    QRandomGenerator m_generator{42};
};

// A conversation as an agent writes it: questions, answers with Markdown, and every so often a
// tool call, its execution and the tool's result.
ConversationSnapshot conversationOf(TextGenerator &text, int messages, int executions)
{
    ConversationSnapshot snapshot;
    snapshot.conversation.title = text.text(5);
    snapshot.conversation.provider = QStringLiteral("openai");
    snapshot.conversation.model = QStringLiteral("gpt-4o");
    const int callEvery = executions > 0 ? std::max(4, messages / executions) : messages + 1;
    int calls = 0;
    for (int i = 0; i < messages; ++i) {
        ChatMessage message;
        if (i % callEvery == 1 && calls < executions) {
            const QString id = QStringLiteral("call_%1").arg(++calls);
            message.role = ChatMessage::Role::Assistant;
            message.id = i + 1; // the snapshot's own id, which the execution's call names
            message.toolCalls = {
                {id, QStringLiteral("execute_python_code"), QStringLiteral("{\"code\": \"%1\"}").arg(text.text(30))}};
            snapshot.messages << message;
            ChatMessage result;
            result.role = ChatMessage::Role::Tool;
            result.toolCallId = id;
            result.toolName = QStringLiteral("execute_python_code");
            result.content = text.text(40);
            snapshot.messages << result;
            StoredExecution execution;
            execution.call = {message.id, 0};
            execution.toolCallId = id;
            execution.code = text.text(60);
            execution.result.status = ExecutionResult::Status::Ok;
            execution.result.standardOutput = text.text(80);
            execution.result.figures = {QStringLiteral("figures/fig-%1.png").arg(calls)};
            execution.result.durationMs = 40;
            snapshot.executions << execution;
            ++i;
            continue;
        }
        message.role = i % 2 == 0 ? ChatMessage::Role::User : ChatMessage::Role::Assistant;
        message.content =
            text.text(message.role == ChatMessage::Role::User ? text.bounded(8, 40) : text.bounded(60, 200));
        message.usage = {1200, 300, 1500};
        snapshot.messages << message;
    }
    return snapshot;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QTemporaryDir dir;
    TextGenerator text;

    // Loading a long conversation for display.
    ConversationStore small(dir.filePath(QStringLiteral("load")));
    const auto long2000 = small.insertConversation(conversationOf(text, 2000, 100));
    if (!long2000)
        qFatal("%s", qPrintable(long2000.error().message));
    const auto load = sample(50, [&](int) {
        const auto snapshot = small.loadConversation(long2000->id);
        return snapshot.ok() && snapshot->messages.size() == 2000 && snapshot->executions.size() == 100;
    });

    // A large history: 1000 conversations of 100 messages, 5 executions each.
    ConversationStore large(dir.filePath(QStringLiteral("search")));
    QElapsedTimer fill;
    fill.start();
    for (int i = 0; i < 1000; ++i) {
        if (!large.insertConversation(conversationOf(text, 100, 5)))
            qFatal("filling the store failed");
    }
    const double fillSeconds = elapsedMs(fill) / 1000;

    const QStringList queries = {QStringLiteral("revenue"),   QStringLiteral("penguin flipper"),
                                 QStringLiteral("histogram"), QStringLiteral("timeout error"),
                                 QStringLiteral("seaborn"),   QStringLiteral("sales forecast"),
                                 QStringLiteral("invoice"),   QStringLiteral("matplotlib legend"),
                                 QStringLiteral("customer"),  QStringLiteral("quarter growth")};
    qsizetype hits = 0;
    const auto search = sample(200, [&](int run) {
        const auto found = large.search(queries.at(run % queries.size()), 50);
        hits += found ? found->size() : 0;
        return found.ok();
    });

    const auto listLarge = sample(20, [&](int) { return large.conversations()->size() == 1000; });
    // Startup: opening the large file, with the check for what a crash left streaming.
    const auto open = sample(20, [&](int) { return ConversationStore(large.dataFolder()).open().ok(); });

    // What streaming costs in the large store: one save of a growing answer (every 250 ms).
    const qint64 target = large.conversations()->first().id;
    ChatMessage streaming;
    streaming.role = ChatMessage::Role::Assistant;
    streaming.status = ChatMessage::Status::Streaming;
    auto stored = large.appendMessage(target, streaming);
    if (!stored)
        qFatal("%s", qPrintable(stored.error().message));
    ChatMessage growing = *stored;
    const auto streamSave = sample(100, [&](int) {
        growing.content += text.text(20);
        return large.updateMessage(growing).ok();
    });

    std::printf("%-28s %6s %10s %10s %10s\n", "measure (ms)", "runs", "median", "p95", "min");
    row("load 2000 msgs + 100 execs", load);
    row("list 1000 conversations", listLarge);
    row("open the 100k store", open);
    row("search 100k msgs, top 50", search);
    row("streaming save (100k db)", streamSave);
    std::printf("filled 100 000 messages + 5 000 executions in %.1f s; %.1f hits per query on average\n", fillSeconds,
                double(hits) / double(search.size()));

    const QJsonObject figures{{QStringLiteral("load_2000_ms"), percentile(load, 0.5)},
                              {QStringLiteral("search_100k_ms"), percentile(search, 0.5)},
                              {QStringLiteral("search_100k_p95_ms"), percentile(search, 0.95)},
                              {QStringLiteral("streaming_save_ms"), percentile(streamSave, 0.5)}};
    std::printf("%s\n", QJsonDocument(figures).toJson(QJsonDocument::Compact).constData());
    return 0;
}
