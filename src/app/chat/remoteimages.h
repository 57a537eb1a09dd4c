#pragma once

#include <QHash>
#include <QImage>
#include <QObject>
#include <QSet>
#include <QUrl>

class QNetworkAccessManager;

namespace Sandpiper {

// The images from the web that the user asked an answer to show (they can leak data, so none
// is fetched unasked). One for the window: an image fetched once shows wherever its address
// is written, and a failure is told once.
class RemoteImages : public QObject
{
    Q_OBJECT

public:
    // More than this is not an image an answer shows.
    static constexpr qsizetype maxBytes = 20 * 1024 * 1024;

    explicit RemoteImages(QObject *parent = nullptr);

    // Fetches the image at URL (http or https only; anything else is refused at once).
    void load(const QUrl &url);
    bool isLoaded(const QUrl &url) const { return m_images.contains(url); }
    bool hasFailed(const QUrl &url) const { return m_failed.contains(url); }
    const QHash<QUrl, QImage> &images() const { return m_images; }

Q_SIGNALS:
    // The image at URL came, or could not be had (see hasFailed).
    void finished(const QUrl &url);

private:
    QNetworkAccessManager *m_network = nullptr;
    QHash<QUrl, QImage> m_images;
    QSet<QUrl> m_failed;
};

} // namespace Sandpiper
