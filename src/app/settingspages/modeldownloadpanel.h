#pragma once

#include <localmodels/hubclient.h>
#include <localmodels/modeldownload.h>

#include <QPointer>
#include <QWidget>

#include <QCoroTask>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace Sandpiper {

class ModelDownloads;
class Settings;

// Models to download from the Hugging Face hub into Sandpiper's models folder: the recommended
// ones that fit this computer's memory, a repository's quantizations with their sizes, or a
// search of the hub's GGUF repositories. One download at a time, with its progress, speed and
// time left, pause and cancel; it is checked against the hub's SHA-256 before it is offered. The
// download is the app's (ModelDownloads): it goes on when the panel closes, and a new panel shows
// it again, or the one that had not finished when Sandpiper last quit, to resume.
class ModelDownloadPanel : public QWidget
{
    Q_OBJECT

public:
    // Without DOWNLOADS (the app's), the panel keeps its own, which ends with it.
    explicit ModelDownloadPanel(Settings *settings, ModelDownloads *downloads = nullptr, QWidget *parent = nullptr);

    QLineEdit *findField() const { return m_find; }
    QTreeWidget *choices() const { return m_choices; }
    QPushButton *downloadButton() const { return m_download; }
    QPushButton *pauseButton() const { return m_pause; }
    QPushButton *cancelButton() const { return m_cancel; }
    QProgressBar *progress() const { return m_progress; }
    QLabel *rateLabel() const { return m_rate; }
    QLabel *status() const { return m_status; }
    ModelDownload *currentDownload() const { return m_current; }
    // "1.2 GB of 4.7 GB at 35 MB/s, 2 min left", for a download's progress.
    static QString progressText(qint64 done, qint64 total, double bytesPerSecond, qint64 secondsLeft);
    // Lists the recommended models again, REPOSITORY's selected when it is one of them.
    void showRecommended(const QString &repository = {});

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

Q_SIGNALS:
    // A model is whole and checked at PATH.
    void downloaded(const QString &path);

private:
    QCoro::Task<> find();
    QCoro::Task<> listRepository(QString repository);
    QCoro::Task<> download(QString repository, QString quantization);
    void activate(QTreeWidgetItem *item);
    // Shows DOWNLOAD's progress and state from now on.
    void follow(ModelDownload *download);
    // The download that had not finished when Sandpiper quit, to resume or cancel.
    void showUnfinished();
    void showProgressRow(bool visible);
    void showProgress(qint64 done, qint64 total, double bytesPerSecond, qint64 secondsLeft);
    void showState(ModelDownload::State state, const QString &message);
    void say(const QString &text, bool problem = false);
    QCoro::Task<QString> token();

    Settings *m_settings;
    ModelDownloads *m_downloads;
    HubClient *m_hub;
    QLineEdit *m_find;
    QPushButton *m_findButton;
    QTreeWidget *m_choices;
    QPushButton *m_download;
    QLineEdit *m_token;
    QProgressBar *m_progress;
    QLabel *m_rate;
    QPushButton *m_pause;
    QPushButton *m_cancel;
    QLabel *m_status;
    QPointer<ModelDownload> m_current;
};

} // namespace Sandpiper
