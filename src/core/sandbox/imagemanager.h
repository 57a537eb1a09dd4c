#pragma once

#include "sandbox/dockercli.h"

#include <QObject>

#include <QCoroTask>

namespace Sandpiper {

// Checks that the sandbox image is there and builds it when asked, reporting progress.
class ImageManager : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    static QCoro::Task<bool> isPresent(QString image);
    // The Python version of IMAGE ("3.13.5"), asked of a throwaway container without network;
    // empty when Docker or the image cannot tell within a few seconds.
    static QCoro::Task<QString> pythonVersion(QString image);

    // Builds IMAGE on ENGINE with `docker build` from CONTEXT (a folder holding a Dockerfile,
    // such as the installed sandbox/ folder). Each line of the build's output arrives as progress().
    QCoro::Task<bool> build(QString image, QString context, DockerCli::Engine engine = DockerCli::Engine::chosen());

    // Sends IMAGE from this machine's own engine (the default context, without DOCKER_HOST) to
    // ENGINE, a remote one without the image: `docker save | docker load`, with the share sent so
    // far as progress().
    QCoro::Task<bool> send(QString image, DockerCli::Engine engine = DockerCli::Engine::chosen());

    QString lastError() const { return m_lastError; }

Q_SIGNALS:
    void progress(const QString &line);

private:
    QString m_lastError;
};

} // namespace Sandpiper
