#pragma once

#include <sandbox/dockercli.h>

#include <QWidget>

#include <QCoroTask>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace Sandpiper {

class EngineService;
class Settings;

// The settings' Sandbox tab: which engine new sandboxes start on (the docker command's choice,
// one of its contexts, or an address), its check, the image and its build, the limits of a run
// and of a conversation's files, and the removal of every sandbox container. The engine's chores
// are the EngineService's; this page shows them.
class SandboxSettingsPage : public QWidget
{
    Q_OBJECT

public:
    explicit SandboxSettingsPage(Settings *settings, QWidget *parent = nullptr);

    // False, with the reason shown beside the engine field, when the field names no engine.
    bool check();
    // Writes the fields to the settings.
    void save();

Q_SIGNALS:
    // check() found something the user must see here.
    void needsAttention();

private:
    void buildForm();
    void load();
    // What the engine field holds, as the setting stores it; and as the engine it names.
    QString engineSetting() const;
    DockerCli::Engine engineInField() const;
    void selectEngine(const QString &setting);
    void showBuildOutput(const QString &line);
    void showBuildStep(const QString &text);
    QCoro::Task<> listEngineContexts();
    QCoro::Task<> checkEngine();
    QCoro::Task<> provideImage();
    QCoro::Task<> removeContainers();

    Settings *m_settings;
    EngineService *m_engines;

    // Which engine, local or remote, its health and round trip (issue 18).
    QComboBox *m_engine;
    QLabel *m_engineError;
    QLabel *m_engineStatus;
    QPushButton *m_engineButton;
    QLineEdit *m_image;
    QPushButton *m_buildButton;
    QProgressBar *m_buildProgress;
    QLabel *m_buildResult;
    QToolButton *m_logToggle;
    QPlainTextEdit *m_buildLog;
    QLineEdit *m_memory;
    QDoubleSpinBox *m_cpus;
    QSpinBox *m_timeout;
    QCheckBox *m_network;
    QCheckBox *m_restoreVariables;
    QSpinBox *m_idleStop;
    QSpinBox *m_diskLimit;
    QSpinBox *m_maxFigures;
    QPushButton *m_removeButton;
    QLabel *m_removeResult;
};

} // namespace Sandpiper
