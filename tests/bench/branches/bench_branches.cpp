// scripts/bench branches: conversations that branch (issue 27). Switching the view between two
// branches of a 500-message conversation with 20 branch points, bringing the real sandbox to a
// branch of 10 cells of 10 ms each, and the disk the folder snapshots of 20 branches take when
// they share a 100 MB file.
#include "agentrecorder.h"
#include "dockertest.h"
#include "fakellmserver.h"
#include "fakestreams.h"

#include <chat/chatview.h>
#include <session/agentsettings.h>
#include <session/conversationsession.h>
#include <session/messagemodel.h>
#include <settings/settings.h>
#include <storage/conversationstore.h>

#include <QApplication>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>

using namespace std::chrono_literals;
using namespace Sandpiper;
using namespace Sandpiper::Test;
namespace FS = Sandpiper::Test::FakeStreams;

namespace {

double median(QList<double> samples)
{
    std::sort(samples.begin(), samples.end());
    return samples.at(samples.size() / 2);
}

void paintNow(QWidget *window)
{
    QApplication::processEvents();
    window->repaint();
    QApplication::processEvents();
}

struct Figures {
    QList<std::pair<QString, double>> rows;
    QJsonObject json;

    void add(const char *label, double value, const char *key)
    {
        rows.append({QString::fromLatin1(label), value});
        json.insert(QLatin1String(key), value);
    }
};

ChatMessage message(ChatMessage::Role role, const QString &content)
{
    ChatMessage made;
    made.role = role;
    made.content = content;
    return made;
}

// An answer of some length, with Markdown as answers have it.
QString answerText(int index)
{
    return QStringLiteral("## Step %1\n\nThe **numbers** of step %1 look fine: `revenue` rose, costs did not.\n\n"
                          "- growth %1.5%%\n- margin stable\n\n```python\ndf.groupby('region').revenue.sum()\n```\n")
        .arg(index);
}

// 500 messages on the path shown; at 20 of its questions another version with an answer of its
// own. The two versions of the question at EARLY (message 50) both go on to message 500.
struct BranchedConversation {
    qint64 id = 0;
    qint64 longA = 0; // the question at message 50, and its other version
    qint64 longB = 0;
    qint64 lateA = 0; // the question at message 480, and its other version
    qint64 lateB = 0;
};

void appendPath(ConversationStore &store, qint64 id, int from, int to, const QString &tag)
{
    for (int i = from; i < to; i += 2) {
        (void)store.appendMessage(id, message(ChatMessage::Role::User, QStringLiteral("%1 question %2").arg(tag).arg(i)));
        (void)store.appendMessage(id, message(ChatMessage::Role::Assistant, answerText(i)));
    }
}

BranchedConversation createBranched(ConversationStore &store)
{
    BranchedConversation made;
    made.id = store.createConversation(QStringLiteral("custom"), QStringLiteral("bench"))->id;
    appendPath(store, made.id, 0, 50, QStringLiteral("A"));
    const auto early = store.appendMessage(made.id, message(ChatMessage::Role::User, QStringLiteral("Early fork")));
    made.longA = early->id;
    (void)store.appendMessage(made.id, message(ChatMessage::Role::Assistant, answerText(50)));
    appendPath(store, made.id, 52, 500, QStringLiteral("A"));
    // 18 short branches along the way, and the late one.
    const auto path = store.messages(made.id);
    for (int point = 1; point <= 19; ++point) {
        const ChatMessage &question = path->at(point * 24 + (point == 19 ? 24 : 0));
        const auto version = store.addMessageVersion(made.id, question.id,
                                                     message(ChatMessage::Role::User, QStringLiteral("Other question")));
        (void)store.appendMessage(made.id, message(ChatMessage::Role::Assistant, answerText(point)));
        if (point == 19) {
            made.lateA = question.id;
            made.lateB = version->id;
        }
        (void)store.showMessage(made.id, question.id);
    }
    // The other version of the early question, which goes on to 500 messages too.
    const auto other = store.addMessageVersion(made.id, made.longA,
                                               message(ChatMessage::Role::User, QStringLiteral("Early fork, again")));
    made.longB = other->id;
    (void)store.appendMessage(made.id, message(ChatMessage::Role::Assistant, answerText(50)));
    appendPath(store, made.id, 52, 500, QStringLiteral("B"));
    return made;
}

// Switching the view: from the click to the chat painted.
void measureViewSwitch(Settings &settings, ConversationStore &store, Figures &figures)
{
    const BranchedConversation branched = createBranched(store);
    AgentConfig config = AgentSettings::read(settings);
    config.pythonEnabled = false; // the view only: the kernel's part is measured below
    ConversationSession session(branched.id, &store, config);
    (void)session.load();
    ChatView view;
    view.setSession(&session);
    view.resize(900, 700);
    view.show();
    paintNow(&view);
    const auto measure = [&](qint64 a, qint64 b) {
        QList<double> samples;
        for (int run = 0; run < 10; ++run) {
            QElapsedTimer timer;
            timer.start();
            (void)session.showVersion(run % 2 == 0 ? a : b);
            paintNow(&view);
            samples << double(timer.nsecsElapsed()) / 1e6;
        }
        return median(samples);
    };
    figures.add("switch, fork at 50 of 500 (ms, median)", measure(branched.longA, branched.longB), "switch_early_ms");
    figures.add("switch, fork at 480 of 500 (ms, median)", measure(branched.lateA, branched.lateB), "switch_late_ms");
    figures.add("  messages shown", session.messages()->rowCount(), "switch_rows");
    // Of that, painting the chat once more with nothing changed, and reading the branch from the store.
    QList<double> painting;
    for (int run = 0; run < 10; ++run) {
        QElapsedTimer timer;
        timer.start();
        paintNow(&view);
        painting << double(timer.nsecsElapsed()) / 1e6;
    }
    figures.add("  of it, a paint alone (ms, median)", median(painting), "switch_paint_ms");
    QList<double> reading;
    for (int run = 0; run < 10; ++run) {
        QElapsedTimer timer;
        timer.start();
        (void)store.showMessage(branched.id, run % 2 == 0 ? branched.lateA : branched.lateB);
        (void)store.messages(branched.id);
        (void)store.executions(branched.id);
        reading << double(timer.nsecsElapsed()) / 1e6;
    }
    figures.add("  of it, the store's part (ms, median)", median(reading), "switch_store_ms");
}

// Bringing the real sandbox to a branch of 10 cells of 10 ms each: from the switch to the
// sandbox on that branch, beside the same 10 cells run once in the live kernel.
void measureReplay(Figures &figures)
{
    if (const QString why = dockerUnavailableReason(); !why.isEmpty()) {
        std::printf("replay: skipped (%s)\n", qPrintable(why));
        return;
    }
    QTemporaryDir dir;
    ConversationStore store(dir.filePath(QStringLiteral("data")));
    (void)store.open();
    const qint64 id = store.createConversation(QStringLiteral("custom"), QStringLiteral("bench"))->id;
    QDir().mkpath(store.conversationFolder(id));
    FakeLlmServer server;
    if (!server.listen())
        qFatal("no fake server");
    AgentConfig config = agentConfig(server.baseUrl(), ApprovalPolicy::Auto, store.conversationFolder(id));
    config.sandbox.conversationId = QStringLiteral("bench-branches");
    ConversationSession session(id, &store, config);
    (void)session.load();
    const auto waitIdle = [&session] {
        if (!session.isBusy())
            return;
        QSignalSpy finished(&session, &ConversationSession::turnFinished);
        if (!finished.wait(120000))
            qFatal("no end of turn");
    };
    QList<FS::ScriptedCall> calls;
    for (int cell = 0; cell < 10; ++cell)
        calls.append({QStringLiteral("call_%1").arg(cell), QStringLiteral("execute_python_code"),
                      jsonCode(QStringLiteral("import time\ntime.sleep(0.01)\nv%1 = %1").arg(cell))});
    server.enqueue(FS::openAiToolCalls(calls));
    server.enqueue(FS::openAiText(QStringLiteral("Ten cells.")));
    QElapsedTimer firstRun;
    firstRun.start();
    session.send(QStringLiteral("ten cells"));
    waitIdle();
    const double turn = double(firstRun.nsecsElapsed()) / 1e6;
    const qint64 question = session.messages()->item(0).message.id;
    server.enqueue(FS::openAiToolCalls({{QStringLiteral("call_other"), QStringLiteral("execute_python_code"),
                                         jsonCode(QStringLiteral("w = 1"))}}));
    server.enqueue(FS::openAiText(QStringLiteral("One cell.")));
    (void)session.resendFrom(question, QStringLiteral("one cell"));
    waitIdle();
    const qint64 edited = session.messages()->item(0).message.id;
    // From the replay's start (the session waits a moment after a switch, so that paging through
    // versions runs nothing) to the sandbox on the branch.
    QElapsedTimer timer;
    QObject::connect(&session, &ConversationSession::stateChanged, &session, [&] {
        if (session.state().restoring && !timer.isValid())
            timer.start();
    });
    QList<double> toTen;
    QList<double> toOne;
    for (int run = 0; run < 5; ++run) {
        for (const bool ten : {true, false}) {
            timer.invalidate();
            QSignalSpy finished(&session, &ConversationSession::turnFinished);
            (void)session.showVersion(ten ? question : edited);
            if (!finished.wait(120000))
                qFatal("the sandbox did not follow the branch");
            (ten ? toTen : toOne) << double(timer.nsecsElapsed()) / 1e6;
            if (session.state().restore.restored != (ten ? 10 : 1))
                qFatal("the replay ran %d cells", session.state().restore.restored);
        }
    }
    figures.add("to a branch of 10 cells (ms, median)", median(toTen), "replay_10_ms");
    figures.add("to a branch of 1 cell (ms, median)", median(toOne), "replay_1_ms");
    figures.add("  the 10 cells' first turn (ms)", turn, "first_turn_10_ms");
}

qint64 diskBytes(const QString &folder)
{
    qint64 bytes = 0;
    QDirIterator files(folder, QDir::Files | QDir::Hidden | QDir::NoSymLinks, QDirIterator::Subdirectories);
    while (files.hasNext()) {
        struct stat info {};
        if (::lstat(QFile::encodeName(files.next()).constData(), &info) == 0)
            bytes += qint64(info.st_blocks) * 512;
    }
    return bytes;
}

// 20 branches whose runs each leave a small file of their own beside one 100 MB file they share.
void measureSnapshots(Figures &figures)
{
    QTemporaryDir dir;
    ConversationStore store(dir.filePath(QStringLiteral("data")));
    (void)store.open();
    const qint64 id = store.createConversation(QStringLiteral("custom"), QStringLiteral("bench"))->id;
    const QString folder = store.conversationFolder(id);
    QDir().mkpath(folder);
    {
        QFile big(folder + QStringLiteral("/big.bin"));
        if (!big.open(QIODevice::WriteOnly))
            qFatal("cannot write the big file");
        QByteArray block(1 << 20, '\0');
        for (int mb = 0; mb < 100; ++mb) {
            std::fill(block.begin(), block.end(), char(mb));
            big.write(block);
        }
    }
    const auto first = store.appendMessage(id, message(ChatMessage::Role::User, QStringLiteral("branch 0")));
    QList<qint64> executions;
    QList<double> record;
    for (int branch = 0; branch < 20; ++branch) {
        const auto asked =
            branch == 0 ? first
                        : store.addMessageVersion(id, first->id,
                                                  message(ChatMessage::Role::User, QStringLiteral("branch %1").arg(branch)));
        ChatMessage call = message(ChatMessage::Role::Assistant, {});
        call.toolCalls = {{QStringLiteral("call_%1").arg(branch), QStringLiteral("execute_python_code"),
                           QStringLiteral("{\"code\": \"pass\"}")}};
        const auto answer = store.appendMessage(id, call);
        QFile own(folder + QStringLiteral("/own.txt"));
        if (!own.open(QIODevice::WriteOnly) || own.write(QByteArray::number(branch)) < 0)
            qFatal("cannot write a small file");
        own.close();
        StoredExecution execution;
        execution.conversationId = id;
        execution.call = {answer->id, 0};
        execution.toolCallId = call.toolCalls.first().id;
        execution.code = QStringLiteral("pass");
        execution.result.status = ExecutionResult::Status::Ok;
        // Stored as the agent stores a run, and its folder recorded after it.
        const auto stored = store.addExecution(execution);
        if (!stored)
            qFatal("%s", qPrintable(stored.error().message));
        QElapsedTimer timer;
        timer.start();
        if (const auto recorded = store.recordFolder(id, stored->id); !recorded)
            qFatal("%s", qPrintable(recorded.error().message));
        record << double(timer.nsecsElapsed()) / 1e6;
        executions << stored->id;
        if (!asked)
            qFatal("%s", qPrintable(asked.error().message));
    }
    // Back to the first branch after the big file was removed, and to another one.
    QFile::remove(folder + QStringLiteral("/big.bin"));
    QElapsedTimer cold;
    cold.start();
    if (const auto restored = store.restoreFolder(id, executions.first()); !restored || !restored->problem.isEmpty())
        qFatal("restore failed");
    const double restoreBig = double(cold.nsecsElapsed()) / 1e6;
    QList<double> restoreSmall;
    for (int run = 0; run < 10; ++run) {
        QElapsedTimer timer;
        timer.start();
        (void)store.restoreFolder(id, executions.at(run % 2 == 0 ? 5 : 6));
        restoreSmall << double(timer.nsecsElapsed()) / 1e6;
    }
    figures.add("snapshots of 20 branches (MB on disk)", double(diskBytes(store.snapshotFolder())) / 1e6,
                "snapshots_20_mb");
    figures.add("  first record, 100 MB file (ms)", record.first(), "record_first_ms");
    figures.add("  later records (ms, median)", median(record.mid(1)), "record_later_ms");
    figures.add("  restore, 100 MB file back (ms)", restoreBig, "restore_big_ms");
    figures.add("  restore, small file changes (ms, median)", median(restoreSmall), "restore_small_ms");
}

} // namespace

// scripts/bench branches [view] [replay] [disk]: the measures named, or all.
// Targets: a view switch <= 50 ms, a branch of 10 cells of 10 ms <= 1.5 s, 20 branches <= 110 MB.
int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QStringList chosen = app.arguments().mid(1);
    if (chosen.isEmpty())
        chosen = {QStringLiteral("view"), QStringLiteral("replay"), QStringLiteral("disk")};
    QTemporaryDir dir;
    Settings settings(dir.filePath(QStringLiteral("profile")));
    if (const QString error = settings.addOverride(QStringLiteral("sandbox/enabled=false")); !error.isEmpty())
        qFatal("%s", qPrintable(error));
    ConversationStore store(settings.dataDirectory());
    (void)store.open();

    Figures figures;
    if (chosen.contains(QLatin1String("view")))
        measureViewSwitch(settings, store, figures);
    if (chosen.contains(QLatin1String("replay")))
        measureReplay(figures);
    if (chosen.contains(QLatin1String("disk")))
        measureSnapshots(figures);

    std::printf("%-42s %10s\n", "measure", "value");
    for (const auto &[label, value] : std::as_const(figures.rows))
        std::printf("%-42s %10.2f\n", qPrintable(label), value);
    std::printf("%s\n", QJsonDocument(figures.json).toJson(QJsonDocument::Compact).constData());
    return 0;
}
