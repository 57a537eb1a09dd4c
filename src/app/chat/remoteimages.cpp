#include "chat/remoteimages.h"

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
        const QByteArray bytes = reply->read(maxBytes);
        QImage image;
        if (reply->error() == QNetworkReply::NoError && image.loadFromData(bytes)) {
            m_images.insert(url, image);
            m_failed.remove(url);
        } else {
            m_failed.insert(url);
        }
        Q_EMIT finished(url);
    });
}

} // namespace Sandpiper
