#include "math/mathrenderer.h"

#include "logging.h"
#include "sandbox/containerlauncher.h"
#include "sandbox/dockercli.h"
#include "sandbox/enginefeatures.h"
#include "sandbox/svgsanitizer.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSaveFile>
#include <QThreadPool>

#include <QCoroTask>

#include <cmath>

using namespace std::chrono_literals;

namespace Sandpiper {

namespace {

// A new renderer draws differently: its answers are kept apart from older ones.
constexpr auto cacheVersion = "1";
// The first answer includes the container's start and matplotlib's import (about 1.5 s here).
constexpr auto startTimeout = 30s;
// mathrender.py answers a formula within 8 s, even one it has to give up.
constexpr auto formulaTimeout = 15s;
constexpr auto idleStop = 2min;
constexpr auto retryDelay = 1min;
// No drawn formula comes near this; a longer line is not read.
constexpr qint64 maxAnswerBytes = 4 * 1024 * 1024;
constexpr qint64 maxSvgBytes = 2 * 1024 * 1024;
constexpr double maxPoints = 100000;

bool validMetric(double value)
{
    return std::isfinite(value) && value >= 0 && value <= maxPoints;
}

// An answer of the container, checked: numbers in range, an SVG of sensible size.
MathRenderer::Formula formulaFrom(const QJsonObject &answer)
{
    MathRenderer::Formula formula;
    if (answer.contains(QLatin1String("error"))) {
        formula.state = MathRenderer::State::Failed;
        formula.error = answer.value(QLatin1String("error")).toString().left(500);
        return formula;
    }
    formula.svg = answer.value(QLatin1String("svg")).toString().toUtf8();
    formula.width = answer.value(QLatin1String("width")).toDouble(-1);
    formula.ascent = answer.value(QLatin1String("ascent")).toDouble(-1);
    formula.descent = answer.value(QLatin1String("descent")).toDouble(-1);
    bool valid = !formula.svg.isEmpty() && formula.svg.size() <= maxSvgBytes && formula.svg.startsWith("<svg ") &&
                 validMetric(formula.width) && validMetric(formula.ascent) && validMetric(formula.descent);
    // The TeX is the model's: a formula that names anything outside itself is not drawn.
    if (valid) {
        SvgSanitizer::Result clean = SvgSanitizer::clean(formula.svg);
        valid = clean.problem.isEmpty() && clean.refusedReferences == 0;
        formula.svg = std::move(clean.svg);
    }
    formula.state = valid ? MathRenderer::State::Drawn : MathRenderer::State::Failed;
    if (!valid) {
        formula.svg.clear();
        formula.error = MathRenderer::tr("The math renderer gave an answer that cannot be shown.");
    }
    return formula;
}

} // namespace

MathRenderer::MathRenderer(const QString &image, const QString &cacheFolder, QObject *parent)
    : QObject(parent)
    , m_image(image)
    , m_cacheFolder(cacheFolder)
{
    m_watchdog.setSingleShot(true);
    // The renderer gives up a formula that takes too long itself; silence means it is stuck.
    connect(&m_watchdog, &QTimer::timeout, this, [this] {
        giveUp(m_processAnswered ? tr("the math renderer stopped answering")
                                 : tr("the math renderer did not start in time"));
        stopProcess();
    });
    m_idle.setSingleShot(true);
    m_idle.setInterval(idleStop);
    connect(&m_idle, &QTimer::timeout, this, &MathRenderer::stopProcess);
}

MathRenderer::~MathRenderer()
{
    if (!m_process)
        return;
    m_process->closeWriteChannel();
    if (!m_process->waitForFinished(1500))
        m_process->kill();
}

void MathRenderer::setEnabled(bool enabled)
{
    if (enabled == m_enabled)
        return;
    m_enabled = enabled;
    m_unavailableReason.clear();
    m_retryAfter = QDeadlineTimer(0);
    if (!enabled) {
        giveUp(tr("the sandbox is off in the settings"));
        stopProcess();
        return;
    }
    // Formulas shown as TeX because the sandbox was off are drawn now, when next painted.
    for (auto it = m_formulas.begin(); it != m_formulas.end();) {
        if (it->state == State::Unavailable) {
            const QString tex = it.key();
            it = m_formulas.erase(it);
            Q_EMIT finished(tex);
        } else {
            ++it;
        }
    }
}

void MathRenderer::setImage(const QString &image)
{
    if (image == m_image)
        return;
    m_image = image;
    stopProcess();
    m_unavailableReason.clear();
    m_retryAfter = QDeadlineTimer(0);
}

MathRenderer::Formula MathRenderer::formula(const QString &tex)
{
    const auto known = m_formulas.constFind(tex);
    if (known != m_formulas.cend())
        return *known;
    // Looked up on disk once: a formula is asked about each time it is laid out or painted.
    Formula cached;
    readCache(tex, &cached);
    m_formulas.insert(tex, cached);
    return cached;
}

void MathRenderer::request(const QString &tex)
{
    const Formula known = formula(tex);
    // A formula that could not be drawn for want of a renderer is tried again after a while.
    const bool retry = known.state == State::Unavailable && m_enabled && m_retryAfter.hasExpired();
    if (known.state != State::Missing && !retry)
        return;
    Formula formula;
    if (tex.size() > maxTexLength) {
        formula.state = State::Failed;
        formula.error = tr("The formula is longer than %n characters.", nullptr, int(maxTexLength));
    } else if (!m_enabled) {
        formula.state = State::Unavailable;
        formula.error = tr("the sandbox is off in the settings");
    } else if (!m_unavailableReason.isEmpty() && !m_retryAfter.hasExpired()) {
        formula.state = State::Unavailable;
        formula.error = m_unavailableReason;
    } else {
        formula.state = State::Rendering;
        m_formulas.insert(tex, formula);
        m_queue.append(tex);
        // One write for what one paint asks: the first formula queued schedules it.
        if (m_queue.size() == 1)
            QTimer::singleShot(0, this, &MathRenderer::sendQueued);
        return;
    }
    m_formulas.insert(tex, formula);
    Q_EMIT finished(tex);
}

void MathRenderer::startProcess()
{
    // The limits go only to an engine that enforces them (rootless podman refuses some).
    m_starting = true;
    const DockerCli::Engine engine = DockerCli::Engine::chosen();
    QCoro::connect(EngineFeatures::of(engine), this, [this, engine](const EngineFeatures &features) {
        m_starting = false;
        // Turned off, or everything given up, while the engine was asked: nothing to start for.
        if (!m_enabled || m_queue.isEmpty())
            return;
        launch(engine, features);
        sendQueued();
    });
}

void MathRenderer::launch(const DockerCli::Engine &engine, const EngineFeatures &features)
{
    QFile script(QStringLiteral(":/sandbox/mathrender.py"));
    if (!script.open(QIODevice::ReadOnly)) {
        giveUp(tr("the math renderer is missing from this build"));
        return;
    }
    m_process = new QProcess(this);
    m_processAnswered = false;
    m_stderr.clear();
    // Hardened as a conversation's sandbox, with no network and small limits of its own.
    SandboxConfig limits;
    limits.tmpSize = QStringLiteral("64m");
    limits.pidsLimit = 16;
    limits.memory = QStringLiteral("512m");
    limits.cpus = 2;
    const QStringList arguments = QStringList{QStringLiteral("run"), QStringLiteral("-i"), QStringLiteral("--rm"),
                                              QStringLiteral("--pull"), QStringLiteral("never")} +
                                  ContainerLauncher::hardeningArguments(limits, features) +
                                  QStringList{QStringLiteral("-e"),
                                              QStringLiteral("HOME=/tmp"),
                                              m_image,
                                              QStringLiteral("python3"),
                                              QStringLiteral("-u"),
                                              QStringLiteral("-c"),
                                              QString::fromUtf8(script.readAll())};
    connect(m_process, &QProcess::readyReadStandardOutput, this, &MathRenderer::readAnswers);
    connect(m_process, &QProcess::readyReadStandardError, this, [this, process = m_process] {
        m_stderr = QByteArray(m_stderr + process->readAllStandardError()).right(4096);
    });
    connect(m_process, &QProcess::finished, this, [this, process = m_process] {
        if (process == m_process)
            processEnded();
        process->deleteLater();
    });
    connect(m_process, &QProcess::errorOccurred, this, [this, process = m_process](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart && process == m_process) {
            process->deleteLater();
            m_process = nullptr;
            giveUp(tr("the Docker client (%1) could not be started").arg(DockerCli::program()));
        }
    });
    qCDebug(lcSandbox) << "starting the math renderer in" << m_image;
    engine.applyTo(*m_process);
    m_process->start(DockerCli::program(), arguments);
}

void MathRenderer::sendQueued()
{
    if (m_queue.isEmpty() || m_starting)
        return;
    if (!m_process) {
        startProcess();
        return; // sent once the container is on its way
    }
    QByteArray lines;
    for (const QString &tex : std::as_const(m_queue)) {
        const qint64 id = m_nextId++;
        m_sent.insert(id, tex);
        lines += QJsonDocument(QJsonObject{{QStringLiteral("id"), id}, {QStringLiteral("tex"), tex}})
                     .toJson(QJsonDocument::Compact) +
                 '\n';
    }
    m_queue.clear();
    m_process->write(lines);
    m_idle.stop();
    if (!m_watchdog.isActive())
        m_watchdog.start(m_processAnswered ? formulaTimeout : startTimeout);
}

void MathRenderer::readAnswers()
{
    while (m_process && m_process->canReadLine()) {
        const QByteArray line = m_process->readLine(maxAnswerBytes);
        if (!line.endsWith('\n')) {
            // Longer than any honest answer: the renderer is not itself.
            qCWarning(lcSandbox) << "the math renderer wrote a line that is too long";
            giveUp(tr("the math renderer gave an answer that cannot be read"));
            stopProcess();
            return;
        }
        const QJsonObject answer = QJsonDocument::fromJson(line).object();
        const qint64 id = answer.value(QLatin1String("id")).toInteger(-1);
        if (!m_sent.contains(id))
            continue;
        m_processAnswered = true;
        answered(m_sent.take(id), formulaFrom(answer));
        m_watchdog.start(formulaTimeout);
    }
    if (m_sent.isEmpty()) {
        m_watchdog.stop();
        m_idle.start();
    }
}

void MathRenderer::answered(const QString &tex, const Formula &formula)
{
    m_formulas.insert(tex, formula);
    if (formula.state == State::Drawn) {
        writeCache(tex, formula);
        if (!m_cachePruned && !m_cacheFolder.isEmpty()) {
            m_cachePruned = true;
            QThreadPool::globalInstance()->start([folder = m_cacheFolder] { pruneCache(folder, cacheLimitBytes); });
        }
    }
    Q_EMIT finished(tex);
}

void MathRenderer::processEnded()
{
    m_process = nullptr;
    m_watchdog.stop();
    if (m_sent.isEmpty() && m_queue.isEmpty())
        return;
    // Docker ends its complaint with "See 'docker run --help'."; the line before says what is wrong.
    QStringList lines = QString::fromUtf8(m_stderr).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    lines.removeIf([](const QString &line) { return line.startsWith(QLatin1String("See '")); });
    const QString detail = lines.isEmpty() ? QString() : lines.last().trimmed();
    qCWarning(lcSandbox) << "the math renderer ended:" << detail;
    if (!m_processAnswered) {
        const bool noImage =
            detail.contains(QLatin1String("No such image")) || detail.contains(QLatin1String("Unable to find image"));
        giveUp(noImage            ? tr("the sandbox image %1 is missing").arg(m_image)
               : detail.isEmpty() ? tr("the math renderer could not start")
                                  : detail);
        return;
    }
    // It drew before: whatever ended it, a new one takes the rest.
    for (const QString &tex : std::as_const(m_sent))
        m_queue.prepend(tex);
    m_sent.clear();
    sendQueued();
}

void MathRenderer::giveUp(const QString &reason)
{
    m_watchdog.stop();
    Formula unavailable;
    unavailable.state = State::Unavailable;
    unavailable.error = reason;
    m_unavailableReason = reason;
    m_retryAfter.setRemainingTime(retryDelay);
    const QStringList waiting = m_queue + m_sent.values();
    m_queue.clear();
    m_sent.clear();
    for (const QString &tex : waiting) {
        m_formulas.insert(tex, unavailable);
        Q_EMIT finished(tex);
    }
}

void MathRenderer::stopProcess()
{
    m_idle.stop();
    if (!m_process)
        return;
    QProcess *process = m_process;
    m_process = nullptr;
    // Its standard input closed, the renderer ends and its container is removed (--rm); one that
    // does not end is killed (its finished() deletes it).
    process->closeWriteChannel();
    QTimer::singleShot(5s, process, &QProcess::kill);
}

QString MathRenderer::cachePath(const QString &tex) const
{
    if (m_cacheFolder.isEmpty())
        return {};
    const QByteArray key =
        QCryptographicHash::hash(QByteArray(QByteArray(cacheVersion) + '\0' + tex.toUtf8()), QCryptographicHash::Sha256)
            .toHex()
            .left(32);
    return m_cacheFolder + QLatin1Char('/') + QString::fromLatin1(key) + QStringLiteral(".json");
}

bool MathRenderer::readCache(const QString &tex, Formula *formula) const
{
    QFile file(cachePath(tex));
    if (file.fileName().isEmpty() || !file.open(QIODevice::ReadOnly))
        return false;
    const QJsonObject stored = QJsonDocument::fromJson(file.read(maxAnswerBytes)).object();
    // The hash names the file; the TeX inside tells two formulas with the same name apart.
    if (stored.value(QLatin1String("tex")).toString() != tex)
        return false;
    // What is on disk is checked as an answer is: a damaged file is drawn again.
    const Formula kept = formulaFrom(stored);
    if (kept.state != State::Drawn)
        return false;
    *formula = kept;
    // Used now: the last to go when the cache is pruned.
    file.setFileTime(QDateTime::currentDateTimeUtc(), QFileDevice::FileModificationTime);
    return true;
}

void MathRenderer::writeCache(const QString &tex, const Formula &formula) const
{
    const QString path = cachePath(tex);
    if (path.isEmpty() || !QDir().mkpath(m_cacheFolder))
        return;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return;
    file.write(QJsonDocument(QJsonObject{{QStringLiteral("tex"), tex},
                                         {QStringLiteral("svg"), QString::fromUtf8(formula.svg)},
                                         {QStringLiteral("width"), formula.width},
                                         {QStringLiteral("ascent"), formula.ascent},
                                         {QStringLiteral("descent"), formula.descent}})
                   .toJson(QJsonDocument::Compact));
    if (!file.commit())
        qCDebug(lcSandbox) << "a drawn formula could not be kept:" << file.errorString();
}

void MathRenderer::pruneCache(const QString &folder, qint64 limitBytes)
{
    // Oldest first.
    const QFileInfoList files = QDir(folder).entryInfoList({QStringLiteral("*.json")}, QDir::Files | QDir::NoSymLinks,
                                                           QDir::Time | QDir::Reversed);
    qint64 total = 0;
    for (const QFileInfo &file : files)
        total += file.size();
    if (total <= limitBytes)
        return;
    const qint64 target = limitBytes / 4 * 3;
    int removed = 0;
    for (const QFileInfo &file : files) {
        if (total <= target)
            break;
        if (QFile::remove(file.filePath())) {
            total -= file.size();
            ++removed;
        }
    }
    qCInfo(lcSandbox) << "removed" << removed << "formulas drawn long ago from the cache";
}

} // namespace Sandpiper
