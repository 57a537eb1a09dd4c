#pragma once

#include <localmodels/localrunner.h>
#include <localmodels/modelshelf.h>

#include <QStringList>
#include <QWidget>

#include <QCoroTask>

#include <optional>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace Sandpiper {

class ModelDownloadPanel;
class ModelDownloads;
class RunnerImage;
class Settings;

// The settings' Models tab: the GGUF models on this computer (Sandpiper's own folder, those that
// LM Studio, llama.cpp and Hugging Face downloaded, and the folders added here), each with what
// its header says; "Add a GGUF file…"; models to download from the Hugging Face hub
// (ModelDownloadPanel); and how llama-server runs them (which program, the flags
// chosen for this machine, the idle stop, how many conversations it answers at once). Without a
// llama-server of its own, "Get llama-server for Docker" puts one on the Docker engine (RunnerImage).
class ModelSettingsPage : public QWidget
{
    Q_OBJECT

public:
    // DOWNLOADS: the app's model downloads (the page keeps its own without).
    explicit ModelSettingsPage(Settings *settings, ModelDownloads *downloads = nullptr, QWidget *parent = nullptr);

    // Writes the fields to the settings.
    void save();
    // Reads the models again (a file was added or downloaded).
    void refresh();

    QTreeWidget *modelList() const { return m_list; }
    QPushButton *useButton() const { return m_use; }
    QPushButton *addButton() const { return m_add; }
    QLabel *flags() const { return m_flags; }
    QLabel *problem() const { return m_problem; }
    ModelDownloadPanel *downloads() const { return m_downloads; }
    QPushButton *getRunnerButton() const { return m_getRunner; }
    QLabel *runnerResult() const { return m_runnerResult; }
    QPlainTextEdit *runnerLog() const { return m_runnerLog; }
    RunnerImage *runnerImage() const { return m_runnerImage; }
    // Adds the model file PATH (its folder joins the folders looked in); false, with why on the
    // page, when it is no GGUF model that can be run.
    bool addModelFile(const QString &path);

Q_SIGNALS:
    // The user chose the model NAME on this computer for new conversations (Providers takes it).
    void modelChosen(const QString &name);

private:
    void showFlags();
    // Which llama-server runs the models, in the server field's placeholder; the button that gets
    // one for Docker while there is none of the computer's own.
    void showServer();
    QCoro::Task<> getRunner();
    void chooseFile();
    QStringList folders() const;
    // PLAN's flags, with the program and devices FOUND when they are known.
    void showPlan(RunnerPlan plan, const std::optional<RunnerDiscovery> &found);

    Settings *m_settings;
    QTreeWidget *m_list;
    QPushButton *m_use;
    QPushButton *m_add;
    QPushButton *m_openFolder;
    QLabel *m_problem;
    QLineEdit *m_server;
    QLineEdit *m_runnerReference;
    QPushButton *m_getRunner;
    QPushButton *m_stopRunner;
    QLabel *m_runnerResult;
    QPlainTextEdit *m_runnerLog;
    RunnerImage *m_runnerImage;
    QSpinBox *m_idleMinutes;
    QSpinBox *m_parallel;
    QLabel *m_flags;
    quint64 m_flagsAsked = 0; // only the newest look at the program shows
    ModelDownloadPanel *m_downloads;
    QList<ModelFile> m_models;
    QStringList m_addedFolders; // added here, saved with the page
};

} // namespace Sandpiper
