#pragma once

#include <llm/providerdetector.h>
#include <localmodels/modelshelf.h>
#include <localmodels/recommendedmodels.h>

#include <QFuture>
#include <QPointer>

#include <QWidget>

#include <QCoroTask>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QVBoxLayout;

namespace Sandpiper {

class ModelDownload;
class ModelDownloads;
class RunnerImage;
class Settings;

// Shown in place of the empty chat while no provider works: says why, offers the local
// servers it finds (one click each) and a field for an OpenAI key.
class WelcomePage : public QWidget
{
    Q_OBJECT

public:
    // DOWNLOADS: the app's model downloads (the page keeps its own without).
    explicit WelcomePage(Settings *settings, ModelDownloads *downloads = nullptr, QWidget *parent = nullptr);

    // Where to look for local servers; the presets' usual addresses unless tests say otherwise.
    void setCandidates(QList<ProviderDetector::Candidate> candidates) { m_candidates = std::move(candidates); }
    // REASON says what is wrong with the configured provider (or why the page is shown).
    void start(const QString &reason);
    // Whether there is a chat to go back to (the page was asked for from the Help menu).
    void setBackOffered(bool offered);
    QPushButton *backButton() const { return m_back; }
    void scan();

    QList<QPushButton *> useButtons() const { return m_useButtons; }
    QProgressBar *downloadProgress() const { return m_downloadProgress; }
    QLabel *downloadNote() const { return m_downloadNote; }
    QPushButton *cancelDownloadButton() const { return m_cancelDownload; }
    QLineEdit *apiKeyField() const { return m_apiKey; }

Q_SIGNALS:
    // The settings now name a provider that should work; the page can go.
    void providerChosen();
    void apiKeyEntered(const QString &providerId, const QString &key, bool remembered);
    void settingsRequested();
    void backRequested();
    void scanFinished();

private:
    QCoro::Task<> runScan();
    QCoro::Task<> saveApiKey();
    void use(const ProviderDetector::Found &server);
    // The model NAME on this computer, run by Sandpiper's own llama-server.
    void useLocal(const QString &model);
    // What this computer has for Sandpiper's own llama-server.
    struct LocalOffer {
        bool runner = false; // a llama-server: the settings' path, PATH or an image for Docker
        bool docker = false;
        QList<ModelFile> runnable; // the first few models it can run (none without the program)
    };
    // Looks off the GUI thread: finding the program may ask Docker, and reading the models reads
    // every GGUF's header.
    QFuture<LocalOffer> lookHere() const;
    // A paragraph of details goes below its button: beside a long button it would be squeezed
    // into a column of one or two words in a narrow window.
    enum class DetailsPlace { Beside, Below };
    void addServerRow(QPushButton *button, QLabel *details, DetailsPlace place = DetailsPlace::Beside);
    // Downloads MODEL from the hub with its progress on the page, then runs it here; gets
    // llama-server for Docker first when this computer has none.
    QCoro::Task<> downloadAndRun(RecommendedModel model, QPushButton *button);
    Settings *m_settings;
    QList<ProviderDetector::Candidate> m_candidates;
    QLabel *m_reason;
    QLabel *m_scanStatus;
    QVBoxLayout *m_serverList;
    QList<QPushButton *> m_useButtons;
    QPushButton *m_rescan;
    QLineEdit *m_apiKey;
    QPushButton *m_saveKey;
    QPushButton *m_openSettings;
    QPushButton *m_back;
    bool m_scanning = false;
    ModelDownloads *m_downloads;
    QPointer<ModelDownload> m_download;
    QProgressBar *m_downloadProgress;
    QLabel *m_downloadNote;
    QPushButton *m_cancelDownload;
    RunnerImage *m_runnerImage;
};

} // namespace Sandpiper
