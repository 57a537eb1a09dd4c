#pragma once

#include "sandbox/dockercli.h"

#include <QByteArray>
#include <QDeadlineTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>

class QProcess;

namespace Sandpiper {

struct EngineFeatures;

// Draws TeX formulas as SVG paths with matplotlib's mathtext, in a container of the sandbox
// image that runs only sandbox/kernel/mathrender.py: no conversation's code shares it, and it
// has no network, no mount and a read-only root. One container serves the whole app, started at
// the first formula and stopped when idle; formulas are queued and answered in order, off the
// GUI thread. Answers are kept in memory and, drawn ones, on disk, so a conversation opened again
// shows its formulas without the sandbox.
//
// Why mathtext: Debian 13 packages no C++ library that draws TeX math for Qt without a TeX
// installation, and the sandbox image already has matplotlib. Its TeX is a subset: environments
// (\begin{…}) are refused with a reason, and the formula is then shown as its TeX.
class MathRenderer : public QObject
{
    Q_OBJECT

public:
    enum class State {
        Missing,     // not asked for yet
        Rendering,   // queued or being drawn
        Drawn,       // svg and the metrics are set
        Failed,      // the TeX does not parse: error says why
        Unavailable, // nothing can be drawn now (the sandbox is off or does not start): error says why
    };
    struct Formula {
        State state = State::Missing;
        QByteArray svg; // black paths; the viewer colours them
        // In points of a fontSize font: the baseline is ascent from the top.
        double width = 0;
        double ascent = 0;
        double descent = 0;
        QString error;
    };
    // The font size, in points, that the metrics are for.
    static constexpr double fontSize = 10.0;
    // Longer TeX is not sent: it is shown as code.
    static constexpr qsizetype maxTexLength = 4000;

    // What the disk cache may hold; past it, the formulas shown least recently go.
    static constexpr qint64 cacheLimitBytes = 32 * 1024 * 1024;

    // Drawn formulas are kept in CACHEFOLDER (none: in memory only).
    explicit MathRenderer(const QString &image, const QString &cacheFolder, QObject *parent = nullptr);
    ~MathRenderer() override;

    // Off: formulas not drawn yet stay Unavailable (the sandbox is off in the settings).
    void setEnabled(bool enabled);
    void setImage(const QString &image);

    // What is known of TEX now, from memory or the disk cache; never starts anything.
    Formula formula(const QString &tex);
    // Has TEX drawn unless it is known; finished(TEX) follows.
    void request(const QString &tex);
    // Formulas asked for and not answered yet.
    int pendingCount() const { return int(m_queue.size() + m_sent.size()); }

    // Removes the formulas in FOLDER that were read or written least recently until it holds at
    // most three quarters of LIMITBYTES, when it holds more than that limit. The renderer does so
    // off its thread, once a run, at its first formula drawn.
    static void pruneCache(const QString &folder, qint64 limitBytes);

Q_SIGNALS:
    void finished(const QString &tex);

private:
    // Asks the engine what it enforces, then launches.
    void startProcess();
    // Starts the renderer's container on ENGINE, the one FEATURES describe.
    void launch(const DockerCli::Engine &engine, const EngineFeatures &features);
    void sendQueued();
    void readAnswers();
    void processEnded();
    void answered(const QString &tex, const Formula &formula);
    // Everything queued or sent is Unavailable for REASON, until retryAfter.
    void giveUp(const QString &reason);
    void stopProcess();
    QString cachePath(const QString &tex) const;
    bool readCache(const QString &tex, Formula *formula) const;
    void writeCache(const QString &tex, const Formula &formula) const;

    QString m_image;
    QString m_cacheFolder;
    bool m_enabled = true;
    QHash<QString, Formula> m_formulas;
    QStringList m_queue;           // asked for, not sent yet
    QHash<qint64, QString> m_sent; // sent to the container, by request id
    qint64 m_nextId = 1;
    QPointer<QProcess> m_process;
    bool m_starting = false;        // the engine is being asked before the container starts
    bool m_processAnswered = false; // the running container has answered at least once
    bool m_cachePruned = false;
    QByteArray m_stderr;
    QTimer m_watchdog; // no answer in time: the formula (or the start) takes too long
    QTimer m_idle;
    // Why nothing can be drawn, after a failed start, and when to try again.
    QString m_unavailableReason;
    QDeadlineTimer m_retryAfter{0};
};

} // namespace Sandpiper
