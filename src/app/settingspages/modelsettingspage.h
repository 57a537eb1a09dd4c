#pragma once

#include <localmodels/modelshelf.h>

#include <QStringList>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace Sandpiper {

class ModelDownloadPanel;
class ModelDownloads;
class Settings;

// The settings' Models tab: the GGUF models on this computer (Sandpiper's own folder, those that
// LM Studio, llama.cpp and Hugging Face downloaded, and the folders added here), each with what
// its header says; "Add a GGUF file…"; models to download from the Hugging Face hub
// (ModelDownloadPanel); and how llama-server runs them (which program, the flags
// chosen for this machine, the idle stop, how many conversations it answers at once).
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
    // Adds the model file PATH (its folder joins the folders looked in); false, with why on the
    // page, when it is no GGUF model that can be run.
    bool addModelFile(const QString &path);

Q_SIGNALS:
    // The user chose the model NAME on this computer for new conversations (Providers takes it).
    void modelChosen(const QString &name);

private:
    void showFlags();
    void chooseFile();
    QStringList folders() const;

    Settings *m_settings;
    QTreeWidget *m_list;
    QPushButton *m_use;
    QPushButton *m_add;
    QPushButton *m_openFolder;
    QLabel *m_problem;
    QLineEdit *m_server;
    QSpinBox *m_idleMinutes;
    QSpinBox *m_parallel;
    QLabel *m_flags;
    ModelDownloadPanel *m_downloads;
    QList<ModelFile> m_models;
    QStringList m_addedFolders; // added here, saved with the page
};

} // namespace Sandpiper
