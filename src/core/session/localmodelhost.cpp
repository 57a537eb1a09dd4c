#include "session/localmodelhost.h"

#include "settings/settings.h"

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

QCoro::Task<Result<QUrl>> LocalModelHost::address(QString model)
{
    QPointer<LocalModelHost> self(this);
    const Result<ModelFile> file = findLocalModel(models(), model, m_settings->localModelsFolder());
    if (!file)
        co_return file.error();
    if (!m_runner || m_runner->plan().modelPath != file->path) {
        // Another model: the server of the last one ends (a conversation still answering with
        // it gets the broken stream's message and may retry); those waiting for it to load hear
        // why before it goes.
        if (m_runner) {
            m_runner->retire(tr("Another model was chosen: %1 runs now.").arg(QFileInfo(file->path).fileName()));
            m_runner.release()->deleteLater();
        }
        RunnerPlan plan =
            RunnerPlan::forModel(file->path, *file->info, RunnerPlan::availableMemory(), QThread::idealThreadCount(),
                                 std::max(1, m_settings->integer(QStringLiteral("local/parallel"))));
        plan.alias = model.isEmpty() ? plan.alias : model;
        const RunnerProgram program = RunnerProgram::find(m_settings->string(QStringLiteral("local/server")));
        plan.offloadTo(DeviceProbe::cached(program));
        QDir().mkpath(QFileInfo(logFile()).absolutePath());
        m_runner = std::make_unique<LocalRunner>(program, plan, logFile());
        connect(m_runner.get(), &LocalRunner::stateChanged, this, &LocalModelHost::stateChanged);
        applySettings();
    }
    const Result<QUrl> url = co_await m_runner->ready();
    if (!self)
        co_return tr("The model on this computer was closed.");
    co_return url;
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

QString LocalModelHost::problem()
{
    if (RunnerProgram::find(m_settings->string(QStringLiteral("local/server"))).program.isEmpty())
        return tr("No llama-server was found to run a model on this computer: install llama.cpp's server "
                  "(llama-server) from your distribution, set its path in Settings › Models, or build the "
                  "runner image for Docker (scripts/llama-image in Sandpiper's sources).");
    const QList<ModelFile> found = models();
    if (std::none_of(found.cbegin(), found.cend(), [](const ModelFile &model) { return model.runnable(); }))
        return tr("There is no GGUF model on this computer yet: download one in Settings › Models, or put one in "
                  "%1.")
            .arg(QDir::toNativeSeparators(m_settings->localModelsFolder()));
    return {};
}

void LocalModelHost::keepAlive()
{
    if (m_runner)
        m_runner->keepAlive();
}

void LocalModelHost::applySettings()
{
    if (!m_runner)
        return;
    m_runner->setIdleStop(std::chrono::minutes(std::max(0, m_settings->integer(QStringLiteral("local/idle_minutes")))));
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
