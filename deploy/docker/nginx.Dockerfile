# nginx in front, with the same configuration file production.sh renders (deploy/production/).
#   docker build -f deploy/docker/nginx.Dockerfile -t course-portal/nginx .
# The certificate and key are mounted at /etc/portal/tls (server.crt, server.key).
# NOT run in this project's CI (no Docker engine there).
FROM nginx:1.22
COPY deploy/production/nginx.conf deploy/production/render-nginx.sh /etc/portal/
ENV RUN_DIR=/tmp LOG_DIR=/var/log/nginx LISTEN=0.0.0.0 HTTPS_PORT=8443 HTTP_PORT=8080 \
    TLS_CERT=/etc/portal/tls/server.crt TLS_KEY=/etc/portal/tls/server.key \
    COMMAND_SERVERS="command-api-1:3001 command-api-2:3001" QUERY_SERVERS="query-api-1:3003 query-api-2:3003"
CMD ["/bin/sh", "-c", "/etc/portal/render-nginx.sh > /etc/nginx/nginx.conf && exec nginx -g 'daemon off;'"]
