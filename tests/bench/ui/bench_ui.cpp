// scripts/bench ui: how fast the desktop app starts, opens a long conversation, streams, shows a
// table and an answer full of formulas.
#include "dockertest.h"
#include "fakellmserver.h"
#include "fakestreams.h"
#include "settingsoverrides.h"

#include <agent/agentevent.h>
#include <agent/agentthread.h>
#include <chat/chatview.h>
#include <chat/markdownview.h>
#include <chat/messagewidget.h>
#include <composer.h>
#include <mainwindow.h>
#include <math/mathrenderer.h>
#include <session/agentsettings.h>
#include <session/conversationsession.h>
#include <session/messagemodel.h>
#include <session/sessionmanager.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QPlainTextEdit>
#include <QProcess>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <malloc.h>

using namespace Sandpiper;
using namespace Sandpiper::Test;

namespace {

double median(QList<double> samples)
{
    std::sort(samples.begin(), samples.end());
    return samples.at(samples.size() / 2);
}

double cpuMs()
{
    timespec time{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time);
    return double(time.tv_sec) * 1000.0 + double(time.tv_nsec) / 1e6;
}

double rssMb()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    }
    return 0;
}

// What the heap holds now (glibc's count of bytes in use, mapped blocks included): unlike the
// resident size, it does not hide a new allocation in memory an earlier measure freed.
double heapMb()
{
    const struct mallinfo2 info = mallinfo2();
    return double(info.uordblks + info.hblkhd) / (1024.0 * 1024.0);
}

// Paints everything that is due, so that a measure ends when the user would see the result.
void paintNow(QWidget *window)
{
    QApplication::processEvents();
    window->repaint();
    QApplication::processEvents();
}

// A realistic answer: headings, paragraphs, lists, a table and code, about LENGTH characters.
QString longMarkdown(int length)
{
    QString text;
    for (int section = 0; text.size() < length; ++section) {
        text +=
            QStringLiteral("## Part %1\n\nThe data shows a clear **trend** in quarter %1, with `revenue` rising "
                           "and costs flat. Here is what stands out:\n\n- growth of %1.5%%\n- margin stable\n- "
                           "one [outlier](https://example.org)\n\n| Q | Revenue | Cost |\n|---|---:|---:|\n| %1 | 120 "
                           "| 80 |\n| %2 | 135 | 82 |\n\n```python\nimport pandas as pd\ndf = pd.read_csv('q%1.csv')\n"
                           "df.groupby('region').revenue.sum()\n```\n\n")
                .arg(section)
                .arg(section + 1);
    }
    return text.left(length);
}

qint64 createLongConversation(ConversationStore &store, int messages, int figures)
{
    const auto conversation = store.createConversation(QStringLiteral("custom"), QStringLiteral("bench"));
    const QString folder = store.conversationFolder(conversation->id);
    QDir().mkpath(folder + QStringLiteral("/figures"));
    QImage figure(800, 500, QImage::Format_RGB32);
    figure.fill(Qt::white);
    QPainter painter(&figure);
    painter.setPen(QPen(Qt::blue, 3));
    for (int x = 0; x < 790; x += 10)
        painter.drawLine(x, 250 - int(100 * std::sin(x / 60.0)), x + 10, 250 - int(100 * std::sin((x + 10) / 60.0)));
    painter.end();
    int figuresLeft = figures;
    const QString answer = longMarkdown(1200);
    for (int i = 0; i < messages; i += 2) {
        ChatMessage user;
        user.role = ChatMessage::Role::User;
        user.content = QStringLiteral("Question %1: how did the quarter go?").arg(i / 2);
        (void)store.appendMessage(conversation->id, user);
        ChatMessage assistant;
        assistant.role = ChatMessage::Role::Assistant;
        assistant.content = answer;
        if (figuresLeft > 0 && (i / 2) % 5 == 0) {
            const QString callId = QStringLiteral("call_%1").arg(i);
            assistant.toolCalls = {
                {callId, QStringLiteral("execute_python_code"), QStringLiteral("{\"code\": \"plot()\"}")}};
            const auto stored = store.appendMessage(conversation->id, assistant);
            const QString name = QStringLiteral("figures/f%1.png").arg(figuresLeft);
            figure.save(folder + QLatin1Char('/') + name);
            StoredExecution execution;
            execution.conversationId = conversation->id;
            execution.call = {stored ? stored->id : 0, 0};
            execution.toolCallId = callId;
            execution.code = QStringLiteral("plot()");
            execution.result.status = ExecutionResult::Status::Ok;
            execution.result.figures = {name};
            (void)store.addExecution(execution);
            ChatMessage tool;
            tool.role = ChatMessage::Role::Tool;
            tool.toolCallId = callId;
            tool.content = QStringLiteral("Status: ok\nFigure shown to the user: %1").arg(name);
            (void)store.appendMessage(conversation->id, tool);
            --figuresLeft;
            ++i;
        } else {
            (void)store.appendMessage(conversation->id, assistant);
        }
    }
    return conversation->id;
}

// The CPU time it takes to show ANSWER, complete, in a message at once.
__attribute__((noinline)) double renderOnceMs(const QString &answer)
{
    ChatMessage complete;
    complete.role = ChatMessage::Role::Assistant;
    complete.content = answer;
    const double before = cpuMs();
    auto *widget = new MessageWidget(complete, QString());
    widget->resize(880, 400);
    widget->show();
    paintNow(widget);
    const double ms = cpuMs() - before;
    delete widget;
    return ms;
}

// Streams ANSWER into SESSION in 2 000 pieces, one a millisecond, as a fast model would, and
// returns the CPU time it cost to show it in VIEW. Not inlined, so that a profile can be limited
// to it: valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*streamAnswer*'.
__attribute__((noinline)) double streamAnswer(ConversationSession &session, QWidget *view, const QString &answer)
{
    const double before = cpuMs();
    AgentEvent delta;
    delta.kind = AgentEvent::Kind::TextDelta;
    const int pieces = 2000;
    const qsizetype size = answer.size() / pieces;
    for (int i = 0; i < pieces; ++i) {
        delta.text = i == pieces - 1 ? answer.mid(i * size) : answer.mid(i * size, size);
        session.handle(delta);
        // Sleeping, so the wait costs no CPU; the session applies the text once per frame.
        QApplication::processEvents();
        QThread::usleep(1000);
    }
    AgentEvent added;
    added.kind = AgentEvent::Kind::MessageAdded;
    added.message.role = ChatMessage::Role::Assistant;
    added.message.content = answer;
    session.handle(added);
    paintNow(view);
    return cpuMs() - before;
}

struct Figures {
    QList<std::pair<QString, double>> rows; // what the table shows
    QJsonObject json;

    void add(const char *label, double value, const char *key = nullptr)
    {
        rows.append({QString::fromLatin1(label), value});
        if (key)
            json.insert(QLatin1String(key), value);
    }
};

// Start-up: a separate process each time, from exec to the first painted main window.
void measureStartup(const QTemporaryDir &dir, Figures &figures)
{
    QList<double> startup;
    for (int run = 0; run < 7; ++run) {
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("SANDPIPER_EXIT_AFTER_FIRST_PAINT"), QStringLiteral("1"));
        process.setProcessEnvironment(environment);
        QElapsedTimer timer;
        timer.start();
        process.start(QStringLiteral(SANDPIPER_APP_EXECUTABLE),
                      {QStringLiteral("--profile"), dir.filePath(QStringLiteral("startup")), QStringLiteral("--set"),
                       QStringLiteral("sandbox/enabled=false")});
        if (!process.waitForReadyRead(30000))
            qFatal("the app did not paint");
        startup << double(timer.nsecsElapsed()) / 1e6;
        process.waitForFinished(10000);
    }
    figures.add("startup to first paint (ms, median)", median(startup), "startup_ms");
}

// Opening a stored conversation of 500 messages and 50 figures, and switching between two.
void measureOpenAndSwitch(Settings &settings, ConversationStore &store, qint64 emptyId, Figures &figures)
{
    const qint64 longId = createLongConversation(store, 500, 50);
    const qint64 secondLongId = createLongConversation(store, 500, 50);
    QList<double> open;
    QList<double> switching;
    MainWindow window(&settings, &store);
    window.show();
    paintNow(&window);
    // Opening: the conversation's session and page are made from the store each time.
    for (int run = 0; run < 5; ++run) {
        window.openConversation(emptyId);
        paintNow(&window);
        QElapsedTimer timer;
        timer.start();
        window.openConversation(longId);
        paintNow(&window);
        open << double(timer.nsecsElapsed()) / 1e6;
        window.openConversation(emptyId);
        window.sessions()->close(longId); // the next opening reads the store again
    }
    const double rss = rssMb();
    // Switching between two open conversations: another page shows, nothing is rebuilt.
    window.openConversation(longId);
    window.openConversation(secondLongId);
    paintNow(&window);
    for (int run = 0; run < 20; ++run) {
        QElapsedTimer timer;
        timer.start();
        window.openConversation(run % 2 == 0 ? longId : secondLongId);
        paintNow(&window);
        switching << double(timer.nsecsElapsed()) / 1e6;
    }
    figures.add("open 500 msgs + 50 figures (ms)", median(open), "open_500_ms");
    figures.add("resident memory after that (MB)", rss, "open_500_rss_mb");
    figures.add("switch 500-msg chats (ms, median)", median(switching), "switch_500_ms");
}

// A conversation shown in a chat view on screen.
struct ShownConversation {
    ConversationSession session;
    ChatView view;

    ShownConversation(Settings &settings, ConversationStore &store, qint64 id)
        : session(id, &store, AgentSettings::read(settings))
    {
        (void)session.load();
        view.setSession(&session);
        view.resize(900, 700);
        view.show();
        paintNow(&view);
    }
};

// Streaming 20 000 characters of Markdown in 2 000 pieces, against rendering them once.
void measureStreaming(Settings &settings, ConversationStore &store, qint64 emptyId, Figures &figures)
{
    const QString answer = longMarkdown(20000);
    ShownConversation shown(settings, store, emptyId);
    ConversationSession &session = shown.session;
    ChatView &view = shown.view;
    const double renderOnce = renderOnceMs(answer);
    QSignalSpy frames(session.messages(), &QAbstractItemModel::dataChanged);
    QElapsedTimer wall;
    wall.start();
    const double streamCpu = streamAnswer(session, &view, answer);
    figures.add("render 20k chars once (CPU ms)", renderOnce);
    figures.add("stream them in 2000 pieces (CPU ms)", streamCpu);
    figures.add("  over (wall ms)", double(wall.elapsed()));
    figures.add("  in frames", double(frames.count()));
    figures.add("stream / render once", streamCpu / renderOnce, "stream_cpu_ratio");
}

// The table a 1 000 000-row DataFrame shows as (what the kernel sends: 200 rows, its shape).
DataTable millionRowTable()
{
    DataTable table;
    table.tableId = QStringLiteral("t-bench-1");
    table.kind = QStringLiteral("DataFrame");
    table.columns = {QStringLiteral("order"),   QStringLiteral("date"),  QStringLiteral("region"),
                     QStringLiteral("product"), QStringLiteral("units"), QStringLiteral("revenue")};
    table.dtypes = {QStringLiteral("int64"),  QStringLiteral("datetime64[ns]"), QStringLiteral("object"),
                    QStringLiteral("object"), QStringLiteral("int64"),          QStringLiteral("float64")};
    const QStringList regions{QStringLiteral("North"), QStringLiteral("South"), QStringLiteral("East"),
                              QStringLiteral("West")};
    for (int row = 0; row < 200; ++row)
        table.rows << QJsonArray{100001 + row,        QStringLiteral("2024-%1-%2").arg(1 + row % 12).arg(1 + row % 28),
                                 regions.at(row % 4), QStringLiteral("Kayak"),
                                 1 + row % 19,        (1 + row % 19) * 49.5};
    table.totalRows = 1000000;
    table.totalColumns = 6;
    table.exportable = true;
    return table;
}

// Shows a finished run of code in VIEW, its result carrying TABLE (or only text without one), and
// returns the wall time until it is painted.
double showRun(ConversationSession &session, QWidget *view, const QString &callId,
               const std::optional<DataTable> &table)
{
    static qint64 answer = 0; // each run the call of an answer of its own
    AgentEvent proposed;
    proposed.kind = AgentEvent::Kind::ToolCallProposed;
    proposed.key = {++answer, 0};
    proposed.call = {callId, QStringLiteral("execute_python_code"), QStringLiteral("{\"code\": \"sales\"}")};
    session.handle(proposed);
    paintNow(view);
    AgentEvent finished;
    finished.kind = AgentEvent::Kind::ToolFinished;
    finished.key = proposed.key;
    finished.call = proposed.call;
    finished.ran = true;
    finished.success = true;
    ExecutionResult result;
    result.status = ExecutionResult::Status::Ok;
    result.value = QStringLiteral("[1000000 rows x 6 columns]");
    if (table)
        result.tables << *table;
    finished.result = result;
    QElapsedTimer timer;
    timer.start();
    session.handle(finished);
    paintNow(view);
    return double(timer.nsecsElapsed()) / 1e6;
}

// A 1 000 000-row DataFrame's table shown in the chat, against the same card without it.
void measureTable(Settings &settings, ConversationStore &store, qint64 emptyId, Figures &figures)
{
    ShownConversation shown(settings, store, emptyId);
    ConversationSession &session = shown.session;
    ChatView &view = shown.view;
    const DataTable table = millionRowTable();
    QList<double> tableShow;
    QList<double> plainShow;
    const double heapBefore = heapMb();
    for (int run = 0; run < 10; ++run)
        tableShow << showRun(session, &view, QStringLiteral("table_%1").arg(run), table);
    const double heapPerTable = (heapMb() - heapBefore) / 10.0;
    for (int run = 0; run < 10; ++run)
        plainShow << showRun(session, &view, QStringLiteral("plain_%1").arg(run), std::nullopt);
    figures.add("show a 1M-row table (ms, median)", median(tableShow), "table_show_ms");
    figures.add("  the same card without it (ms)", median(plainShow), "plain_card_show_ms");
    figures.add("  heap per table shown (MB)", heapPerTable, "table_heap_mb");
}

// Closing the window while five conversations stream: how long the GUI thread is held.
void measureClosing(const QTemporaryDir &dir, Figures &figures)
{
    FakeLlmServer server;
    server.listen();
    Settings settings(dir.filePath(QStringLiteral("close")));
    if (const QString refused = Test::applySettings(settings, server.providerSettings(QStringLiteral("bench"))
                                                                  << QStringLiteral("sandbox/enabled=false"));
        !refused.isEmpty())
        qFatal("%s", qPrintable(refused));
    ConversationStore store(settings.dataDirectory());
    (void)store.open();
    QList<double> closing;
    for (int run = 0; run < 5; ++run) {
        auto window = std::make_unique<MainWindow>(&settings, &store);
        window->show();
        paintNow(window.get());
        const qsizetype requestsBefore = server.requests().size();
        for (int i = 0; i < 5; ++i) {
            server.enqueue(FakeStreams::slowText(QStringLiteral("An answer that takes its time. ").repeated(20), 200,
                                                 std::chrono::milliseconds(50)));
            window->newConversation();
            window->send(QStringLiteral("question %1").arg(i));
        }
        QElapsedTimer waited;
        waited.start();
        // Five chat requests (and the model list) are in, and the answers are streaming.
        while (server.requests().size() < requestsBefore + 6 && waited.elapsed() < 10000)
            QApplication::processEvents(QEventLoop::AllEvents, 20);
        QElapsedTimer timer;
        timer.start();
        window->close();
        window.reset();
        closing << double(timer.nsecsElapsed()) / 1e6;
        AgentThread::waitForRetiredThreads(std::chrono::seconds(20));
    }
    figures.add("close, 5 busy chats (GUI ms, median)", median(closing), "close_5_busy_ms");
}

// An answer with 50 formulas (40 inline, 10 on display), different for each RUN so that no cache
// holds them; with FORMULAS false, the same text with the TeX as code spans instead.
QString formulaAnswer(int run, bool formulas)
{
    const auto math = [formulas](const QString &tex, bool display) {
        const QString delimiter = !formulas ? QStringLiteral("`")
                                  : display ? QStringLiteral("$$")
                                            : QStringLiteral("$");
        return QString(delimiter + tex + delimiter);
    };
    QString answer;
    for (int i = 0; i < 10; ++i) {
        const QString n = QString::number(run * 100 + i);
        answer +=
            QStringLiteral("For sample %1 the mean is %2, the variance %3, the error %4 and the bound %5.\n\n%6\n\n")
                .arg(n, math(QStringLiteral("\\mu_{%1} = \\frac{1}{N}\\sum_i x_i").arg(n), false),
                     math(QStringLiteral("\\sigma_{%1}^2").arg(n), false),
                     math(QStringLiteral("\\epsilon_{%1} \\approx \\frac{\\sigma}{\\sqrt{N}}").arg(n), false),
                     math(QStringLiteral("e^{-%1 t}").arg(n), false),
                     math(QStringLiteral("\\int_0^{%1} e^{-x^2}\\,dx \\le \\frac{\\sqrt{\\pi}}{2}").arg(n), true));
    }
    return answer;
}

// The answer in a chat-sized window; how long until its first paint, and (with RENDERER) until
// every formula in it is drawn and painted.
struct MathShow {
    double firstPaintMs = 0;
    double allDrawnMs = 0;
};

MathShow showFormulas(const QString &answer, MathRenderer *renderer)
{
    QScrollArea area;
    auto *view = new MarkdownView({renderer});
    area.setWidget(view);
    area.setWidgetResizable(true);
    area.resize(1000, 1600); // the whole answer on screen: every formula is painted
    area.show();
    paintNow(&area);
    QElapsedTimer timer;
    timer.start();
    view->setMarkdownText(answer);
    paintNow(&area);
    MathShow shown;
    shown.firstPaintMs = double(timer.nsecsElapsed()) / 1e6;
    if (renderer) {
        const auto drawn = [&] {
            const QSet<QString> formulas = view->formulas();
            return std::all_of(formulas.cbegin(), formulas.cend(), [&](const QString &tex) {
                return renderer->formula(tex).state == MathRenderer::State::Drawn;
            });
        };
        while (!drawn() && timer.elapsed() < 30000)
            QApplication::processEvents(QEventLoop::AllEvents, 5);
        if (!drawn())
            qFatal("the formulas were not drawn within 30 s");
        QThread::msleep(20); // the view lays the drawn formulas out together, 15 ms after the last
        paintNow(&area);
        shown.allDrawnMs = double(timer.nsecsElapsed()) / 1e6;
    }
    return shown;
}

// An answer with 50 formulas, against the same answer with its TeX as code. Targets: first paint
// (formulas as TeX) <= 100 ms, all drawn <= 2 s.
void measureMath(const QTemporaryDir &dir, Figures &figures)
{
    if (const QString problem = Test::dockerUnavailableReason(); !problem.isEmpty())
        qFatal("the math measure needs the sandbox image: %s", qPrintable(problem));
    QList<double> plain;
    QList<double> firstPaint;
    QList<double> cold;
    QList<double> warm;
    QList<double> cached;
    for (int run = 0; run < 5; ++run)
        plain << showFormulas(formulaAnswer(run, false), nullptr).firstPaintMs;
    for (int run = 0; run < 5; ++run) {
        // Cold: a renderer of its own, its container started by the first formula painted.
        const QString cache = dir.filePath(QStringLiteral("math-%1").arg(run));
        {
            MathRenderer renderer(Test::sandboxImage(), cache);
            const MathShow shown = showFormulas(formulaAnswer(run, true), &renderer);
            firstPaint << shown.firstPaintMs;
            cold << shown.allDrawnMs;
            // Warm: the container runs; the formulas are new.
            warm << showFormulas(formulaAnswer(run + 10, true), &renderer).allDrawnMs;
        }
        // Opened again after a restart: drawn from the disk cache, no container.
        MathRenderer reopened(QStringLiteral("sandpiper-no-such-image:0"), cache);
        cached << showFormulas(formulaAnswer(run, true), &reopened).allDrawnMs;
    }
    figures.add("answer, 50 formulas as code (ms)", median(plain), "math_plain_paint_ms");
    figures.add("answer, 50 formulas: 1st paint (ms)", median(firstPaint), "math_first_paint_ms");
    figures.add("  ratio to the code-only answer", median(firstPaint) / median(plain), "math_first_paint_ratio");
    figures.add("  all drawn, renderer cold (ms)", median(cold), "math_all_drawn_cold_ms");
    figures.add("  all drawn, renderer warm (ms)", median(warm), "math_all_drawn_warm_ms");
    figures.add("  all drawn, from the disk (ms)", median(cached), "math_all_drawn_cached_ms");
}

double threadCpuMs()
{
    timespec time{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time);
    return double(time.tv_sec) * 1000.0 + double(time.tv_nsec) / 1e6;
}

// What a person feels while an answer streams at 50 tokens a second (about 4 characters each)
// for 10 seconds into a conversation of 200 messages, in a window: the GUI thread's share of one
// core, and how late the 20 ms token timer fired (the longest and the 99th percentile): the
// thread was busy, or not scheduled on a busy machine, that long, and a stall longer than a
// frame (16 ms) is a frame missed. The longest CPU work between two ticks is the app's part.
void measureStreamingFeel(Settings &settings, ConversationStore &store, Figures &figures)
{
    const qint64 id = createLongConversation(store, 200, 0);
    ShownConversation shown(settings, store, id);
    shown.view.resize(1000, 800);
    paintNow(&shown.view);
    const QString answer = longMarkdown(2000);
    constexpr int tickMs = 20;
    QList<double> late;
    QList<double> work; // the thread's CPU time from one tick to the next: a busy machine does not add to it
    double cpuAtTick = -1;
    AgentEvent delta;
    delta.kind = AgentEvent::Kind::TextDelta;
    qsizetype sent = 0;
    QTimer tokens;
    tokens.setTimerType(Qt::PreciseTimer);
    tokens.setInterval(tickMs);
    QElapsedTimer wall;
    QElapsedTimer sinceTick;
    // The thread sleeps between events as the app's does: a loop of processEvents() would spin
    // and never block, and its own polling would be measured.
    QEventLoop loop;
    QObject::connect(&tokens, &QTimer::timeout, &tokens, [&] {
        if (sinceTick.isValid())
            late << std::max(0.0, double(sinceTick.nsecsElapsed()) / 1e6 - tickMs);
        sinceTick.start();
        const double cpuNow = threadCpuMs();
        if (cpuAtTick >= 0)
            work << cpuNow - cpuAtTick;
        cpuAtTick = cpuNow;
        delta.text = answer.mid(sent, 4);
        sent += delta.text.size();
        shown.session.handle(delta);
        if (sent >= answer.size() || wall.elapsed() >= 10000)
            loop.quit();
    });
    const double before = threadCpuMs();
    wall.start();
    tokens.start();
    loop.exec();
    tokens.stop();
    const double cpu = threadCpuMs() - before;
    const double elapsed = double(wall.elapsed());
    std::sort(late.begin(), late.end());
    std::sort(work.begin(), work.end());
    figures.add("stream 50 tok/s into 200 msgs: GUI CPU (%)", 100.0 * cpu / elapsed, "stream_feel_gui_cpu_percent");
    figures.add("  longest stall of the 20 ms timer (ms)", late.isEmpty() ? 0.0 : late.constLast(),
                "stream_feel_longest_ms");
    figures.add("  99th percentile stall (ms)",
                late.isEmpty() ? 0.0 : late.at(qsizetype(double(late.size() - 1) * 0.99)), "stream_feel_p99_ms");
    figures.add("  longest CPU work between ticks (ms)", work.isEmpty() ? 0.0 : work.constLast(),
                "stream_feel_longest_cpu_ms");
}

// The answers of WINDOW's conversation on screen that show text.
int answersShown(const MainWindow &window)
{
    int shown = 0;
    for (const MessageWidget *message : window.chatView()->messageWidgets())
        shown += message->message().role == ChatMessage::Role::Assistant && !message->plainText().isEmpty();
    return shown;
}

// Types TEXT into the message box, presses Enter and returns the wall time until the first word of
// the answer is painted.
double untilFirstWord(MainWindow &window, const QString &text)
{
    const int before = answersShown(window);
    QTest::keyClicks(window.composer()->editor(), text);
    QElapsedTimer timer;
    timer.start();
    QTest::keyClick(window.composer()->editor(), Qt::Key_Return);
    while (answersShown(window) == before) {
        if (timer.elapsed() > 30000)
            qFatal("no answer within 30 s");
        QApplication::processEvents(QEventLoop::AllEvents, 1);
    }
    paintNow(&window);
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    // The turn ends, and the title the model writes for a new conversation comes, before the next.
    while (window.currentSession()->isBusy() && timer.elapsed() < 30000)
        QApplication::processEvents(QEventLoop::AllEvents, 5);
    QThread::msleep(300);
    QApplication::processEvents();
    return ms;
}

// From Send to the first word of the answer in a new conversation (its agent, sandbox and title
// are new) and in a follow-up, against a server that streams at once. Target: the new conversation
// within 100 ms of the follow-up.
void measureFirstWord(const QTemporaryDir &dir, Figures &figures)
{
    FakeLlmServer server;
    server.listen();
    // The same answer for every request, the titles' too: whichever comes first gets one.
    for (int i = 0; i < 40; ++i)
        server.enqueue(FakeStreams::openAiText(QStringLiteral("Here is the answer, at once."), 4));
    Settings settings(dir.filePath(QStringLiteral("first-word")));
    QStringList assignments = server.providerSettings(QStringLiteral("bench"));
    const bool docker = Test::dockerUnavailableReason().isEmpty();
    assignments << (docker ? QStringLiteral("sandbox/image=") + Test::sandboxImage()
                           : QStringLiteral("sandbox/enabled=false"));
    if (const QString refused = Test::applySettings(settings, assignments); !refused.isEmpty())
        qFatal("%s", qPrintable(refused));
    ConversationStore store(settings.dataDirectory());
    (void)store.open();
    QList<double> fresh;
    QList<double> followUp;
    {
        MainWindow window(&settings, &store);
        QSignalSpy health(&window, &MainWindow::healthChecked);
        window.resize(1200, 800);
        window.show();
        paintNow(&window);
        if (health.isEmpty())
            health.wait(30000);
        for (int run = 0; run < 7; ++run) {
            window.newConversation();
            paintNow(&window);
            fresh << untilFirstWord(window, QStringLiteral("What is 2 + 2?"));
            followUp << untilFirstWord(window, QStringLiteral("And 3 + 3?"));
        }
    }
    AgentThread::waitForRetiredThreads(std::chrono::seconds(30));
    figures.add(docker ? "first word, new chat (ms, median)" : "first word, new chat, no sandbox (ms)", median(fresh),
                "first_word_new_ms");
    figures.add("first word, follow-up (ms, median)", median(followUp), "first_word_followup_ms");
    figures.add("  new chat minus follow-up (ms)", median(fresh) - median(followUp), "first_word_new_extra_ms");
}

} // namespace

// scripts/bench ui [startup] [open] [stream] [feel] [table] [math] [close] [first]: the measures named, or all.
// Targets of the table: shown in <= 50 ms, <= 20 MB.
int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QStringList chosen = app.arguments().mid(1);
    if (chosen.isEmpty())
        chosen = {QStringLiteral("startup"), QStringLiteral("open"), QStringLiteral("stream"), QStringLiteral("feel"),
                  QStringLiteral("table"),   QStringLiteral("math"), QStringLiteral("close"),  QStringLiteral("first")};
    QTemporaryDir dir;
    Settings settings(dir.filePath(QStringLiteral("open")));
    if (const QString error = settings.addOverride(QStringLiteral("sandbox/enabled=false")); !error.isEmpty())
        qFatal("%s", qPrintable(error));
    ConversationStore store(settings.dataDirectory());
    (void)store.open();
    const auto empty = store.createConversation(QStringLiteral("custom"), QStringLiteral("bench"));

    Figures figures;
    if (chosen.contains(QLatin1String("startup")))
        measureStartup(dir, figures);
    if (chosen.contains(QLatin1String("open")))
        measureOpenAndSwitch(settings, store, empty->id, figures);
    if (chosen.contains(QLatin1String("stream")))
        measureStreaming(settings, store, empty->id, figures);
    if (chosen.contains(QLatin1String("feel")))
        measureStreamingFeel(settings, store, figures);
    if (chosen.contains(QLatin1String("table")))
        measureTable(settings, store, empty->id, figures);
    if (chosen.contains(QLatin1String("math")))
        measureMath(dir, figures);
    if (chosen.contains(QLatin1String("close")))
        measureClosing(dir, figures);
    if (chosen.contains(QLatin1String("first")))
        measureFirstWord(dir, figures);

    std::printf("%-36s %10s\n", "measure", "value");
    for (const auto &[label, value] : std::as_const(figures.rows))
        std::printf("%-36s %10.2f\n", qPrintable(label), value);
    std::printf("%s\n", QJsonDocument(figures.json).toJson(QJsonDocument::Compact).constData());
    return 0;
}
