#include "chat/remoteimages.h"

#include "chat/sandboximage.h"

#include <logging.h>

#include <QNetworkAccessManager>
#include <QNetworkReply>

namespace Sandpiper {

RemoteImages::RemoteImages(QObject *parent)
    : QObject(parent)
{}

void RemoteImages::load(const QUrl &url)
{
    if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))) {
        m_failed.insert(url);
        Q_EMIT finished(url);
        return;
    }
    if (!m_network)
        m_network = new QNetworkAccessManager(this);
    QNetworkRequest request(url);
    request.setTransferTimeout(30000);
    QNetworkReply *reply = m_network->get(request);
    connect(reply, &QNetworkReply::finished, this, [this, reply, url] {
        reply->deleteLater();
        // Raster formats only, within the figures' limits: Qt would draw an SVG from the web with
        // its renderer, which opens the files it names on this computer.
        QString error = reply->errorString();
        const QImage image = reply->error() == QNetworkReply::NoError
                                 ? SandboxImage::decode(reply->read(maxBytes), url.toString(), 0, &error)
                                 : QImage();
        if (!image.isNull()) {
            m_images.insert(url, image);
            m_failed.remove(url);
        } else {
            qCDebug(lcApp) << "remote image not shown:" << error;
            m_failed.insert(url);
        }
        Q_EMIT finished(url);
    });
}

} // namespace Sandpiper
