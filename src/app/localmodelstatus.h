#pragma once

#include <QWidget>

class QToolButton;

namespace Sandpiper {

class ElidedLabel;
class LocalModelHost;
class ModelDownloads;

// The status bar's word on the model on this computer: loading (with the seconds), ready,
// stopped or why it failed (the whole text, with the end of the server's log, as a tooltip),
// and its log one click away. Hidden until the model first runs. With DOWNLOADS, the download of
// a model under way too ("Downloading NAME… 42 %"), or the one that stopped when Sandpiper quit:
// a click on it asks for Settings › Models.
class LocalModelStatus : public QWidget
{
    Q_OBJECT

public:
    explicit LocalModelStatus(LocalModelHost *host, ModelDownloads *downloads = nullptr, QWidget *parent = nullptr);

    QString text() const;
    QToolButton *logButton() const { return m_log; }
    QToolButton *downloadButton() const { return m_download; }

Q_SIGNALS:
    // The download was clicked: Settings › Models shows it.
    void downloadsRequested();

private:
    void show(const QString &message);
    void showDownload();
    void reveal(bool shown);

    LocalModelHost *m_host;
    ModelDownloads *m_downloads;
    ElidedLabel *m_label;
    QToolButton *m_log;
    QToolButton *m_download;
};

} // namespace Sandpiper
