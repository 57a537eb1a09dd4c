#pragma once

#include "storage/storedexecution.h"

#include <QCoreApplication>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace Sandpiper {

// Bringing a conversation's variables back after its kernel was lost (app restart, idle stop,
// crash, replacement): the conversation's successful executions run again, in order, in a
// fresh kernel. A value type: what is offered, how far a replay got, and how it ended, as the
// agent reports it in AgentEvent::restore.
struct KernelRestore {
    Q_DECLARE_TR_FUNCTIONS(Sandpiper::KernelRestore)

public:
    QString reason;       // why the kernel is new, for the user and the model
    int cells = 0;        // successful executions that a replay runs again
    QStringList writers;  // of those, the ones that write into /mnt/data, a line each ("cell 2 wrote sales.csv")
    int done = 0;         // cells replayed so far
    int restored = 0;     // of them, those that ran without error
    QStringList failures; // "cell 3 (df = pd.read_csv(...)): FileNotFoundError: ..."
    int skipped = 0;      // writers left out with the user's choice
    bool stopped = false; // the user stopped the replay, or the kernel died during it
    // The replay brings the sandbox to the branch of the conversation shown (another version of a
    // message), not back after a lost kernel: it runs that branch's cells, writers too, and puts
    // the folder back as the branch left it.
    bool branch = false;
    bool filesBack = false; // the folder holds what the branch's last run of code left there
    QString filesProblem;   // why the folder could not be put back, when it was tried

    // Why the code of EXECUTION is taken to write into the conversation's folder, or empty. It
    // is conservative: the files it changed when it ran, or code that saves, opens for writing,
    // moves or deletes files, runs a shell or pip.
    static QString writesFiles(const StoredExecution &execution);
    // Why a kernel is new when its conversation was not open in this run of Sandpiper.
    static QString reopenedReason();
    // The executions a replay runs again: those that went well, oldest first, with their code
    // and the files they changed only.
    static QList<StoredExecution> replayable(const QList<StoredExecution> &executions);
    // The offer for EXECUTIONS (replayable ones) and REASON.
    static KernelRestore offer(const QList<StoredExecution> &executions, const QString &reason);
    // "cell N (first line of the code)", for messages.
    static QString cellName(int index, const QString &code);
    // How a replayed cell failed, in a few words ("KeyError: 'x'", "it timed out").
    static QString failure(const ExecutionResult &result);

    // Why a kernel holds the wrong variables after the conversation moved to another branch.
    static QString branchReason();
    // What the model is told in the next result of Python code.
    QString modelNote() const;
    // What the user is told when the replay has ended.
    QString userSummary() const;

    friend bool operator==(const KernelRestore &, const KernelRestore &) = default;
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::KernelRestore)
