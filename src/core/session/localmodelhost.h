#pragma once

#include "localmodels/localrunner.h"
#include "localmodels/modeldownload.h"
#include "localmodels/modelshelf.h"
#include "result.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QObject>
#include <QSet>

#include <QCoroTask>

#include <chrono>
#include <memory>
#include <optional>

namespace Sandpiper {

class Settings;

// The GGUF models on this computer (ModelShelf): Sandpiper's own folder of SETTINGS, the other
// applications' folders and those of local/model_folders.
QList<ModelFile> modelsOnThisComputer(const Settings &settings);

// The model NAME among MODELS: by its path, its file's name (with or without .gguf) or the name
// in its header; the only model when NAME is empty. Or why there is none to run, for the user.
Result<ModelFile> findLocalModel(const QList<ModelFile> &models, const QString &name, const QString &ownFolder);

// The provider "This computer": one llama-server (LocalRunner) for the whole app, shared by the
// conversations that use it, started by the first message that needs it and stopped after the
// idle time of the settings. Asking for another model replaces it. Lives on the GUI thread; the
// sessions ask it for the server's address before they hand a turn to their agent.
class LocalModelHost : public QObject
{
    Q_OBJECT

public:
    explicit LocalModelHost(Settings *settings, QObject *parent = nullptr);
    ~LocalModelHost() override;

    // The id of its provider preset.
    static QString providerId();
    // How a model is downloaded from the hub with SETTINGS (a mirror's file hosts) and TOKEN.
    static DownloadOptions downloadOptions(const Settings &settings, const QString &token);
    // The download of REPOSITORY's QUANTIZATION (Q4_K_M or the smallest when empty) into the
    // models folder of SETTINGS, made once HUB listed the repository (not started); or why not.
    static QCoro::Task<Result<ModelDownload *>> prepareDownload(HubClient *hub, const Settings *settings,
                                                                QString repository, QString quantization, QString token,
                                                                QObject *parent);

    // Where what llama-server said about its devices is kept across runs.
    static QString deviceCacheFile(const Settings &settings);

    // Starts looking for the program that runs models and its devices, off the GUI thread (the
    // provider was chosen: its first message should not wait for it).
    void prepare();
    // The /v1 address of the server running MODEL (a name findLocalModel() knows), started or
    // switched to it first; or why not, for the user.
    QCoro::Task<Result<QUrl>> address(QString model);
    // An answer streams: the idle stop waits again.
    void keepAlive();
    // CONVERSATION answers with the model on this computer, or no longer: while any does, the
    // server is not stopped for being idle.
    void setAnswering(const QObject *conversation, bool answering);
    // The idle time and the server's program from the settings, from now on.
    void applySettings();
    // How long one of local/idle_minutes lasts: a minute, less for a test that cannot wait one.
    void setIdleMinute(std::chrono::milliseconds minute);
    void stop();

    // The models on this computer, read again when the last look is more than a few seconds old.
    QList<ModelFile> models();
    // The next models() reads the folders again (a download finished: its model is here now).
    void lookAgain();
    // Why no model can run here (no llama-server, no model), for the user; empty when one can.
    QString problem();
    // What stays of MODEL from one start of its server to the next: its file's path and size;
    // empty when no such model is here.
    QString modelIdentity(const QString &model);

    LocalRunner::State state() const;
    // What the runner last said ("Loading … 3 s"), empty before it first ran.
    QString message() const;
    // Where the server's output goes (it may not exist yet).
    QString logFile() const;
    // Which llama-server runs the model: "llama-server at PATH" or "llama-server in a container
    // (image sandpiper-llama:…)"; empty before it first ran or when there is none (problem() says
    // what to do then).
    QString source() const;
    // The flags the model runs with (empty before it first ran).
    QStringList arguments() const;
    // What the model runs with (its path, context, threads); empty before it first ran.
    RunnerPlan plan() const;

Q_SIGNALS:
    void stateChanged(Sandpiper::LocalRunner::State state, const QString &message);
    // Another program was found to run models (or none any more): problem() may say otherwise.
    void discovered();

private:
    // The program and its devices: the last look when it is under way or a few seconds old, or
    // (REUSEFOUND) found at all; else a new look.
    QFuture<RunnerDiscovery> discovery(bool reuseFound);
    void startRunner(const ModelFile &file, const QString &model, const RunnerDiscovery &found);

    Settings *m_settings;
    std::optional<QFuture<RunnerDiscovery>> m_discovery;
    QString m_discoveredFor; // the setting local/server it looked with
    QElapsedTimer m_discoveredAt;
    std::optional<RunnerDiscovery> m_found; // what the last finished look found
    std::unique_ptr<LocalRunner> m_runner;
    QList<ModelFile> m_models;
    QElapsedTimer m_modelsRead;
    std::chrono::milliseconds m_idleMinute = std::chrono::minutes(1);
    QSet<const QObject *> m_answering;
};

} // namespace Sandpiper
