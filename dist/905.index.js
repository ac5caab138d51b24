export const id = 905;
export const ids = [905];
export const modules = {

/***/ 6905:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   readLiveState: () => (/* binding */ readLiveState)
/* harmony export */ });
async function readLiveState(api, options) {
    const [dashboards, alerts, sources, webhooks, service] = await Promise.all([
        api.listDashboards(),
        api.listAlerts(),
        api.listSources(),
        api.listWebhooks(),
        options.service ? api.getService().then(r => r.service) : Promise.resolve(undefined)
    ]);
    return { dashboards, alerts, sources, webhooks, service };
}


/***/ })

};
