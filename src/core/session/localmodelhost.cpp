#include "session/localmodelhost.h"

#include "settings/settings.h"

#include <localmodels/backgroundwork.h>

#include <QDir>
#include <QFileInfo>
#include <QPointer>
#include <QRegularExpression>
#include <QThread>

#include <algorithm>

namespace Sandpiper {

namespace {

bool matches(const ModelFile &model, const QString &name)
{
    const QFileInfo file(model.path);
    return model.path == QFileInfo(name).absoluteFilePath() || file.completeBaseName() == name ||
           file.fileName() == name || (model.info && model.info->name == name);
}

} // namespace

QList<ModelFile> modelsOnThisComputer(const Settings &settings)
{
    return ModelShelf::scan(
        ModelShelf::folders(settings.localModelsFolder(),
                            settings.string(QStringLiteral("local/model_folders")).split(QDir::listSeparator())));
}

Result<ModelFile> findLocalModel(const QList<ModelFile> &models, const QString &name, const QString &ownFolder)
{
    QList<ModelFile> found = models;
    if (!name.isEmpty())
        found.removeIf([&](const ModelFile &model) { return !matches(model, name); });
    if (found.isEmpty()) {
        if (name.isEmpty())
            return QCoreApplication::translate("Sandpiper::LocalModelHost",
                                               "There is no GGUF model on this computer yet: download one in "
                                               "Settings › Models, or put one in %1.")
                .arg(QDir::toNativeSeparators(ownFolder));
        return QCoreApplication::translate("Sandpiper::LocalModelHost",
                                           "The model \"%1\" is not on this computer (any more): choose one of "
                                           "Settings › Models.")
            .arg(name);
    }
    if (name.isEmpty() && found.size() > 1)
        return QCoreApplication::translate("Sandpiper::LocalModelHost",
                                           "There are %n models on this computer: choose the one to run.", nullptr,
                                           int(found.size()));
    const ModelFile &model = found.constFirst();
    if (!model.runnable())
        return QCoreApplication::translate("Sandpiper::LocalModelHost", "%1 cannot be run: %2")
            .arg(QDir::toNativeSeparators(model.path), model.problem);
    return model;
}

LocalModelHost::LocalModelHost(Settings *settings, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
{}

LocalModelHost::~LocalModelHost() = default;

QString LocalModelHost::providerId()
{
    return QStringLiteral("local");
}

DownloadOptions LocalModelHost::downloadOptions(const Settings &settings, const QString &token)
{
    DownloadOptions options;
    options.token = token;
    options.extraHosts = settings.string(QStringLiteral("local/hub_hosts"))
                             .split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
    return options;
}

QCoro::Task<Result<ModelDownload *>> LocalModelHost::prepareDownload(HubClient *hub, const Settings *settings,
                                                                     QString repository, QString quantization,
                                                                     QString token, QObject *parent)
{
    QPointer<HubClient> alive(hub);
    hub->setToken(token);
    const auto models = co_await hub->models(repository);
    if (!alive)
        co_return tr("The download was closed.");
    if (!models)
        co_return models.error();
    QString why;
    const auto model = HubClient::choose(*models, quantization, &why);
    if (!model)
        co_return tr("%1: %2").arg(repository, why);
    co_return new ModelDownload(hub->endpoint(), repository, *model, settings->localModelsFolder(),
                                downloadOptions(*settings, token), parent);
}

QString LocalModelHost::deviceCacheFile(const Settings &settings)
{
    return settings.cacheDirectory() + QStringLiteral("/llama-server-devices.json");
}

void LocalModelHost::prepare()
{
    discovery(false);
}

QFuture<RunnerDiscovery> LocalModelHost::discovery(bool reuseFound)
{
    const QString configured = m_settings->string(QStringLiteral("local/server"));
    // Under way, or found a moment ago, or (for a start) a program found at all: shared. A server
    // installed since, or an image built since, shows within seconds.
    const bool current = m_discovery && m_discoveredFor == configured &&
                         (!m_discovery->isFinished() || m_discoveredAt.elapsed() < 10000 ||
                          (reuseFound && !m_discovery->result().program.program.isEmpty()));
    if (current)
        return *m_discovery;
    m_discovery = RunnerDiscovery::start(configured, deviceCacheFile(*m_settings));
    m_discoveredFor = configured;
    m_discoveredAt.start();
    QCoro::connect(awaited(*m_discovery), this, [this](const RunnerDiscovery &found) {
        const bool changed = !m_found || m_found->program.program != found.program.program ||
                             m_found->program.image != found.program.image;
        m_found = found;
        if (changed)
            Q_EMIT discovered();
    });
    return *m_discovery;
}

QCoro::Task<Result<QUrl>> LocalModelHost::address(QString model)
{
    QPointer<LocalModelHost> self(this);
    Result<ModelFile> file = findLocalModel(models(), model, m_settings->localModelsFolder());
    if (!file) {
        // Put there since the last look (by another program, or copied in by hand)?
        lookAgain();
        file = findLocalModel(models(), model, m_settings->localModelsFolder());
    }
    if (!file)
        co_return file.error();
    if (!m_runner || m_runner->plan().modelPath != file->path) {
        // The program and its devices were looked for when this provider was chosen; usually
        // they are known by now, else they are awaited here without holding the window up.
        const RunnerDiscovery found = co_await awaited(discovery(true));
        if (!self)
            co_return tr("The model on this computer was closed.");
        // Another message may have started the same model meanwhile.
        if (!m_runner || m_runner->plan().modelPath != file->path)
            startRunner(*file, model, found);
    }
    const Result<QUrl> url = co_await m_runner->ready();
    if (!self)
        co_return tr("The model on this computer was closed.");
    co_return url;
}

void LocalModelHost::startRunner(const ModelFile &file, const QString &model, const RunnerDiscovery &found)
{
    // Another model: the server of the last one ends (a conversation still answering with it gets
    // the broken stream's message and may retry); those waiting for it to load hear why before it
    // goes.
    if (m_runner) {
        m_runner->retire(tr("Another model was chosen: %1 runs now.").arg(QFileInfo(file.path).fileName()));
        m_runner.release()->deleteLater();
    }
    RunnerPlan plan =
        RunnerPlan::forModel(file.path, *file.info, RunnerPlan::availableMemory(), QThread::idealThreadCount(),
                             std::max(1, m_settings->integer(QStringLiteral("local/parallel"))));
    plan.alias = model.isEmpty() ? plan.alias : model;
    plan.offloadTo(found.devices);
    QDir().mkpath(QFileInfo(logFile()).absolutePath());
    m_runner = std::make_unique<LocalRunner>(found.program, plan, logFile());
    connect(m_runner.get(), &LocalRunner::stateChanged, this, &LocalModelHost::stateChanged);
    applySettings();
    m_runner->setInUse(!m_answering.isEmpty());
}

QList<ModelFile> LocalModelHost::models()
{
    // The window asks on every change of the chat; a model copied in shows within seconds.
    if (!m_modelsRead.isValid() || m_modelsRead.elapsed() > 3000) {
        m_models = modelsOnThisComputer(*m_settings);
        m_modelsRead.start();
    }
    return m_models;
}

void LocalModelHost::lookAgain()
{
    m_modelsRead.invalidate();
}

QString LocalModelHost::problem()
{
    // What was found last; Docker is asked again off the GUI thread, and discovered() says when
    // the answer differs. Before the first answer nothing is said about the program.
    discovery(false);
    if (m_found && m_found->program.program.isEmpty())
        return tr("No llama-server was found to run a model on this computer: press “Get llama-server for Docker” "
                  "in Settings › Models, install llama.cpp's server (llama-server) from your distribution, or set "
                  "its path there.");
    const QList<ModelFile> found = models();
    if (std::none_of(found.cbegin(), found.cend(), [](const ModelFile &model) { return model.runnable(); }))
        return tr("There is no GGUF model on this computer yet: download one in Settings › Models, or put one in "
                  "%1.")
            .arg(QDir::toNativeSeparators(m_settings->localModelsFolder()));
    return {};
}

QString LocalModelHost::modelIdentity(const QString &model)
{
    const Result<ModelFile> file = findLocalModel(models(), model, m_settings->localModelsFolder());
    return file ? QStringLiteral("%1 %2").arg(file->path).arg(file->bytes) : QString();
}

void LocalModelHost::keepAlive()
{
    if (m_runner)
        m_runner->keepAlive();
}

void LocalModelHost::setAnswering(const QObject *conversation, bool answering)
{
    if (answering)
        m_answering.insert(conversation);
    else
        m_answering.remove(conversation);
    if (m_runner)
        m_runner->setInUse(!m_answering.isEmpty());
}

void LocalModelHost::applySettings()
{
    if (!m_runner)
        return;
    m_runner->setIdleStop(m_idleMinute * std::max(0, m_settings->integer(QStringLiteral("local/idle_minutes"))));
}

void LocalModelHost::setIdleMinute(std::chrono::milliseconds minute)
{
    m_idleMinute = minute;
    applySettings();
}

void LocalModelHost::stop()
{
    if (m_runner)
        m_runner->stop();
}

LocalRunner::State LocalModelHost::state() const
{
    return m_runner ? m_runner->state() : LocalRunner::State::Stopped;
}

QString LocalModelHost::message() const
{
    return m_runner ? m_runner->message() : QString();
}

QString LocalModelHost::logFile() const
{
    return m_settings->dataDirectory() + QStringLiteral("/logs/llama-server.log");
}

QString LocalModelHost::source() const
{
    return m_runner && !m_runner->program().program.isEmpty() ? m_runner->program().describe() : QString();
}

RunnerPlan LocalModelHost::plan() const
{
    return m_runner ? m_runner->plan() : RunnerPlan();
}

QStringList LocalModelHost::arguments() const
{
    return m_runner ? m_runner->plan().arguments(0) : QStringList();
}

} // namespace Sandpiper
