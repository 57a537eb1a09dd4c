#pragma once

#include "localmodels/localrunner.h"
#include "localmodels/modeldownload.h"
#include "localmodels/modelshelf.h"
#include "result.h"

#include <QElapsedTimer>
#include <QObject>

#include <QCoroTask>

#include <memory>

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

    // The /v1 address of the server running MODEL (a name findLocalModel() knows), started or
    // switched to it first; or why not, for the user.
    QCoro::Task<Result<QUrl>> address(QString model);
    // An answer streams: the idle stop waits again.
    void keepAlive();
    // The idle time and the server's program from the settings, from now on.
    void applySettings();
    void stop();

    // The models on this computer, read again when the last look is more than a few seconds old.
    QList<ModelFile> models();
    // Why no model can run here (no llama-server, no model), for the user; empty when one can.
    QString problem();

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

private:
    Settings *m_settings;
    std::unique_ptr<LocalRunner> m_runner;
    QList<ModelFile> m_models;
    QElapsedTimer m_modelsRead;
};

} // namespace Sandpiper
