#pragma once

#include <QByteArray>

#include <atomic>
#include <chrono>
#include <thread>

#include <fcntl.h>
#include <unistd.h>

namespace Sandpiper::Test {

// From DELAY on, opens FIFO for writing again and again until stopped: whoever blocks opening it
// to read is let go then, so a test of a reader that must not block fails instead of hanging.
class FifoReleaser
{
public:
    FifoReleaser(const QByteArray &fifo, std::chrono::milliseconds delay)
        : m_thread([this, fifo, delay] {
            const auto from = std::chrono::steady_clock::now() + delay;
            while (!m_stop) {
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                if (std::chrono::steady_clock::now() < from)
                    continue;
                if (const int fd = ::open(fifo.constData(), O_WRONLY | O_NONBLOCK); fd >= 0) {
                    ++m_released;
                    ::close(fd);
                }
            }
        })
    {}
    ~FifoReleaser() { stop(); }
    // How many times a reader was blocked on the FIFO and let go.
    int stop()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        return m_released;
    }

private:
    std::atomic<bool> m_stop = false;
    std::atomic<int> m_released = 0;
    std::thread m_thread;
};

} // namespace Sandpiper::Test
