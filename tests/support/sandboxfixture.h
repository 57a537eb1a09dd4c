#pragma once

#include <sandbox/sandboxsession.h>

#include <QTemporaryDir>

#include <memory>

namespace Sandpiper::Test {

// The conversations of a sandbox test in one temporary folder, a folder each, and one session
// that its cases share (started on first use), for the tests that run the sandbox on another
// engine than the main one (a remote Docker engine, podman).
class SandboxFixture
{
public:
    // A conversation's configuration: its own folder, a 1 GiB memory limit, short timeouts.
    SandboxConfig config(const QString &conversation) const;
    SandboxSession &shared();
    // Where NAME of the shared session's folder is here.
    QString sharedPath(const QString &name);
    // Ends the shared session (cleanupTestCase).
    void reset() { m_shared.reset(); }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<SandboxSession> m_shared;
};

// Runs CODE in SESSION and waits for its result.
ExecutionResult run(SandboxSession &session, const QString &code, ExecuteOptions options = {});

// Code the model could write: it finds the kernel in its own interpreter and speaks for it.
extern const QString forgeKernel;

// What a hostile sandbox writes or sends, rows (code, name, reason) for a test's _data function.
void addHostileFileRows();
// Runs a row's CODE in the shared session, the kernel at hand: NAME is not accepted, REASON is
// said, and the kernel goes on. Fails the running test otherwise.
void checkHostileFileRefused(SandboxFixture &sandbox, const QString &code, const QString &name, const QString &reason);

} // namespace Sandpiper::Test
