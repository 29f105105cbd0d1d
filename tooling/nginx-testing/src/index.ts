export { type Nginx, type NginxConfigContext, type StartNginxOptions, startNginx } from "./nginx.ts";
