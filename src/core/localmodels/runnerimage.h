#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <QCoroTask>

#include <chrono>

class QProcess;

namespace Sandpiper {

// Puts llama-server on this machine's Docker engine as an image of RunnerContainer::repository(),
// for a machine without a llama-server of its own, the way the sandbox image is provided: each
// step announced, every line of its output passed on, one outcome in a sentence. In this order:
//  1. `docker pull` of llama.cpp's published server image (a setting: a mirror, or a GPU variant),
//     checked to start its llama-server as the runner starts it, then tagged sandpiper-llama:…;
//  2. where no registry gives it, Debian's llama.cpp-tools in a root made by mmdebstrap and
//     imported (sandbox/llama/build-image.sh, installed beside the sandbox's definition);
//  3. otherwise, what to install or run instead.
// Nothing waits for ever: each step has a time limit and a limit on silence, and cancel() stops it.
class RunnerImage : public QObject
{
    Q_OBJECT

public:
    struct Outcome {
        bool ready = false;
        QString image;   // the sandpiper-llama image that runs llama-server now, when ready
        QString message; // for the user, success or failure
    };

    struct Limits {
        std::chrono::milliseconds firstAnswer = std::chrono::seconds(45); // until the registry says anything
        std::chrono::milliseconds silence = std::chrono::minutes(15);     // between two lines of output
        std::chrono::milliseconds whole = std::chrono::minutes(90);       // one step
    };

    explicit RunnerImage(QObject *parent = nullptr);
    // Whatever still runs is stopped.
    ~RunnerImage() override;

    // llama.cpp's published server image for processors. Not a GPU variant even where a GPU is
    // found: the container is not given the device, so such an image would be larger and no faster.
    static QString defaultReference();
    // The sandpiper-llama tag that the image REFERENCE gets once pulled (one per reference).
    static QString localTag(const QString &reference);
    // The registry REFERENCE comes from ("ghcr.io", "docker.io", "127.0.0.1:5000").
    static QString registry(const QString &reference);
    // sandbox/llama/build-image.sh: installed beside the sandbox's definition, or the source
    // tree's while developing; empty when there is none.
    static QString recipe();

    void setLimits(const Limits &limits) { m_limits = limits; }

    // Pulls REFERENCE (empty: defaultReference() of this machine), else builds the image from
    // Debian's packages when mmdebstrap is here. step() says what happens, output() passes on
    // each line of the programs' output.
    QCoro::Task<Outcome> provide(QString reference);
    // Stops what runs; provide() then says it was cancelled.
    void cancel();
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void step(const QString &text);
    void output(const QString &line);

private:
    // How one program ended.
    struct Run {
        bool ok = false;
        QString lastLines; // its last lines of output
        QString stopped;   // why it was stopped (a time limit, cancel), else empty
    };
    QCoro::Task<Run> run(QString program, QStringList arguments, std::chrono::milliseconds firstAnswer);
    QCoro::Task<Outcome> pull(QString reference);
    QCoro::Task<Outcome> build(QString why);

    Limits m_limits;
    QPointer<QProcess> m_process;
    bool m_running = false;
    bool m_cancelled = false;
};

} // namespace Sandpiper
